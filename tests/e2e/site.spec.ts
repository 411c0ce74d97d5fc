import { acceptEntryWarning, expect, hydrated, openNav, test } from './fixtures.ts';

test('the demo member logs in; a wrong password gets the translated retry message', async ({ page }) => {
  // A visitor of its own: the log-in limits per address are not shared with other tests.
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });
  await page.goto('/login');
  await acceptEntryWarning(page);
  await page.locator('#login-email').fill('demo@example.com');
  await page.locator('#login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('The e-mail address or password is incorrect. Please try again.');
  await page.locator('#login-password').fill('amora-demo');
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByTestId('account-dropdown')).toBeAttached();

  // Log-out from the menu is a POST; afterwards the session is gone.
  // The menu folds behind its toggle on phones only (asked of the project, not of a page still settling).
  await openNav(page, 'account-dropdown');
  await expect(page.getByTestId('logout')).toBeVisible();
  const logout = page.waitForRequest((r) => r.url().endsWith('/api/logout.php'));
  await page.getByTestId('logout').click();
  expect((await logout).method()).toBe('POST');
  await expect(page.getByTestId('account-dropdown')).toHaveCount(0);
  expect((await page.request.get('/api/user.php', { headers: { 'X-Request-Type': 'client' } })).status()).toBe(403);
});

test('the language dropdown renders the site in the chosen language on the server', async ({ page, shot }) => {
  await page.goto('/');
  await acceptEntryWarning(page);
  const toggle = page.locator('.navbar-toggler');
  if (await toggle.isVisible()) await toggle.click();
  await page.locator('#language-dropdown').click();
  await page.getByRole('button', { name: 'Deutsch' }).or(page.getByRole('link', { name: 'Deutsch' })).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await shot('index-de');
  // The server, not the browser, chose the language: the raw HTML is German.
  const html = await (await page.request.get('/')).text();
  expect(html).toContain('lang="de-DE"');
  const cookies = await page.context().cookies();
  const locale = cookies.find((c) => c.name === 'locale');
  expect(locale?.value).toBe('de');
  expect(locale!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
});

test('an unknown page answers 404 with a way home, inside the navigation and the footer', async ({ page, shot }) => {
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  for (const path of ['/no/such/page', '/nosuchtoken', '/members/999999999']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
    await expect(page.getByText('This page could not be found')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute('href', '/');
    await expect(page.getByTestId('footer')).toBeVisible();
    await expect(page.locator('nav.navbar')).toBeVisible();
  }
  await shot('404');
  // The page runs in the browser: the way home is a client-side navigation.
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('error-page')).toHaveCount(0);
});

test('footer pages render in every layout width', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/pages/terms');
  await acceptEntryWarning(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const link of ['Privacy', 'FAQ', 'Pricing']) {
    await page.getByTestId('footer').getByRole('link', { name: link, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});

test('every static page renders with its title, fits the screen and is saved as a screenshot', { tag: '@phone' }, async ({ page, shot }) => {
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  for (const slug of ['terms', 'privacy', 'cookies', 'ban', 'return-policy', 'faq', 'service']) {
    const response = await page.goto(`/pages/${slug}`);
    expect(response?.status(), slug).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty();
    // Nothing wider than the screen (a long word or table would make the page scroll sideways).
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), slug).toBe(true);
    await shot(`page-${slug}`);
  }
});

test('a member landing page invites visitors to sign up and keeps the tracking parameters', { tag: '@phone' }, async ({ page, shot }, info) => {
  await page.goto('/members');
  await acceptEntryWarning(page);
  const href = await page.getByTestId('profile-card').first().getAttribute('href');
  await page.goto(`${href}/landing?network=partner&sub1=spring`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('is waiting for you');
  await shot('member-landing');
  await page.getByTestId('landing-signup').click();
  // Smartphones get the sign-up page, others the sign-up modal; the campaign's parameters come along.
  if (info.project.name === 'mobile') await expect(page).toHaveURL(/\/signup\?network=partner&sub1=spring$/);
  else await expect(page.getByTestId('signup-modal')).toBeVisible();
  const tracking = (await page.context().cookies()).find((c) => c.name === 'amora.tracking');
  expect(JSON.parse(Buffer.from(tracking!.value.split('.')[0], 'base64url').toString())).toEqual({ network: 'partner', sub1: 'spring' });
});

test('the language menu offers the languages of the visitor\'s country; /lang-config offers every language', async ({ page, shot }) => {
  await page.context().setExtraHTTPHeaders({ 'cf-ipcountry': 'BE' });
  await page.goto('/');
  await acceptEntryWarning(page);
  const toggle = page.locator('.navbar-toggler');
  if (await toggle.isVisible()) await toggle.click();
  await page.locator('#language-dropdown').click();
  // Belgium: Dutch, French and German (spec section 9), with the current language kept at the top.
  const items = page.locator('#language-dropdown + .dropdown-menu [data-testid^="language-"]');
  await expect(items).toHaveText(['English', 'Nederlands', 'Français', 'Deutsch', 'More languages…']);
  await page.getByTestId('language-more').click();
  await expect(page).toHaveURL(/\/lang-config$/);
  await expect(page.getByTestId('lang-config-country')).toContainText('Languages in Belgium');
  await expect(page.getByTestId('lang-config-country').getByRole('button')).toHaveCount(4);
  await expect(page.getByTestId('lang-config-all').getByRole('button')).toHaveCount(7);
  await shot('lang-config');
  await page.getByTestId('lang-config-sv').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sv-SE');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Språk');
  await expect(page.getByTestId('lang-config-sv')).toHaveAttribute('aria-pressed', 'true');
});

test('public pages carry a title, a description, Open Graph tags and a canonical URL without the query', async ({ page }) => {
  for (const path of ['/', '/pages/terms', '/landers/gallery', '/pricing']) {
    const html = await (await page.request.get(`${path}?network=adnet&ref=x`)).text();
    const tag = (re: RegExp) => html.match(re)?.[1];
    const canonical = tag(/<link rel="canonical" href="([^"]+)"/);
    expect(canonical, path).toMatch(new RegExp(`^https?://[^/]+${path.replace(/\//g, '\\/')}$`));
    expect(tag(/<meta property="og:url" content="([^"]+)"/), path).toBe(canonical);
    const title = tag(/<title>([^<]+)<\/title>/);
    expect(title, path).toBeTruthy();
    expect(tag(/<meta property="og:title" content="([^"]+)"/), path).toBe(title);
    expect(tag(/<meta name="description" content="([^"]+)"/), path).toBeTruthy();
    expect(tag(/<meta property="og:site_name" content="([^"]+)"/), path).toBe('Amora');
  }
  const terms = await (await page.request.get('/pages/terms')).text();
  expect(terms).toMatch(/<title>[^<]+ · Amora<\/title>/);
  const robots = await (await page.request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /api/');
  // The members' area is left open to crawlers so they read its noindex (the test above).
  expect(robots).not.toContain('Disallow: /chats');
  expect(robots).toMatch(/Sitemap: https?:\/\/[^/]+\/sitemap\.xml/);
});

test('the account menu works by keyboard: Enter opens it, Tab reaches its items, Escape closes it and returns focus', async ({ page }) => {
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': `10.78.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });
  const login = await page.request.post('/api/user.php', { data: { email: 'demo@example.com', password: 'amora-demo' } });
  expect(login.status()).toBe(200);
  await page.goto('/members');
  await hydrated(page);
  const toggle = page.locator('#account-dropdown');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('nav-my-profile')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('nav-my-profile')).toBeHidden();
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  // A click elsewhere closes it too; a link in it leads on and closes it.
  await toggle.click();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(page.getByTestId('logout')).toBeHidden();
  await toggle.click();
  await page.getByTestId('nav-transactions').click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByTestId('nav-transactions')).toBeHidden();
});

test('search engines: a visitor\'s view of the members\' area says noindex, public pages and a member\'s own view do not', async ({ playwright, baseURL }) => {
  const visitor = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.79.${Math.floor(Math.random() * 250)}.1` } });
  for (const path of ['/members', '/chats', '/premium']) {
    const res = await visitor.get(path, { maxRedirects: 0 });
    expect(res.headers()['x-robots-tag'], path).toBe('noindex');
  }
  for (const path of ['/', '/pricing', '/pages/terms', '/landers/gallery']) {
    const res = await visitor.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['x-robots-tag'], path).toBeUndefined();
  }
  expect((await visitor.post('/api/user.php', { data: { email: 'demo@example.com', password: 'amora-demo' } })).status()).toBe(200);
  const signedIn = await visitor.get('/members');
  expect(signedIn.status()).toBe(200);
  expect(signedIn.headers()['x-robots-tag']).toBeUndefined();
  await visitor.dispose();
});
