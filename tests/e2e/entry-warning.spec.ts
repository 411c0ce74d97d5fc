import type { Page } from '@playwright/test';
import { COUNTRIES } from '#common/constants.ts';
import { enterPastWarning, expect, hydrated, test } from './fixtures.ts';
import { SECOND_SITE, sitePort } from './site-port.ts';
import { randomClientIp } from './account-helpers.ts';

/**
 * The adults-only warning on entry (spec section 2) and each of its skip rules: the installed app,
 * a signed-in member, a dismissal before, and a visitor from a country the site does not serve.
 * and a site whose setting turns it off.
 */

/** A visitor of its own: a fresh address, and the country the CDN names. */
async function visitor(page: Page, country: string) {
  const ip = randomClientIp();
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': ip, 'x-country-code': country });
}

/** The server renders the warning; a dismissal kept only in localStorage counts once the page runs. */
async function expectNoWarning(page: Page) {
  await hydrated(page);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect(page.getByTestId('entry-warning')).toHaveCount(0);
}

test('a new visitor sees the warning; entering stores the time and it stays away on the next visit', { tag: '@phone' }, async ({ page, shot }) => {
  await visitor(page, 'NL');
  await page.goto('/');
  await expect(page.getByTestId('entry-warning')).toBeVisible();
  await expect(page.getByTestId('entry-warning')).toContainText('18');
  await shot('entry-warning');
  // Once the page runs, "Enter" closes the warning in place and stores the time.
  await hydrated(page);
  const before = Math.floor(Date.now() / 1000);
  await page.getByTestId('entry-warning-accept').click();
  await expect(page.getByTestId('entry-warning')).toBeHidden();
  const stored = Number(await page.evaluate(() => localStorage.getItem('hide-site-entry-warning')));
  expect(stored).toBeGreaterThanOrEqual(before);
  expect(stored).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  // Dismissed before: not again, on this page or another.
  await page.reload();
  await expectNoWarning(page);
  await page.goto('/pages/faq');
  await expectNoWarning(page);
});

test('the warning is in the page before any script runs; Enter posts then, and the server leaves it out from then on', async ({ page }) => {
  await visitor(page, 'NL');
  const scripts: string[] = [];
  page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
  await page.goto('/');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog).toHaveAccessibleName(/.+/);
  expect(scripts, 'scripts before the first interaction').toEqual([]);
  expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
  // Before the page's code runs "Enter" is a form post: the page comes back without the warning.
  await enterPastWarning(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('hero-title')).toBeVisible();
  const dismissedInCookie = async () => (await page.context().cookies()).find((c) => c.name === 'amora.dismissed')?.value.split('.');
  // The post sets it at once; a click that the page's code (started by the same click) handled first writes it just after.
  await expect.poll(dismissedInCookie).toContain('hide-site-entry-warning');
  const html = await (await page.request.get('/', { headers: { 'x-country-code': 'NL' } })).text();
  expect(html).toContain('data-testid="hero-title"');
  expect(html).not.toContain('data-testid="entry-warning"');
  // Once the page runs, the dismissal the server recorded stays: in the cookie, and in localStorage too.
  await hydrated(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('hide-site-entry-warning'))).toMatch(/^\d+$/);
  expect(await dismissedInCookie()).toContain('hide-site-entry-warning');
  await page.reload();
  await expectNoWarning(page);
});

test('the warning\'s form leads back to a page of this site only, with the cookie', async ({ request }) => {
  const post = (back: string) => request.post('/entry-warning', { form: { return: back }, maxRedirects: 0 });
  const back = await post('/pages/faq?from=warning');
  expect(back.status()).toBe(303);
  expect(back.headers().location).toBe('/pages/faq?from=warning');
  expect(back.headers()['set-cookie']).toMatch(/^amora\.dismissed=[a-z.-]*hide-site-entry-warning[a-z.-]*; Path=\/; Max-Age=\d+; SameSite=Lax/);
  for (const elsewhere of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '']) {
    const res = await post(elsewhere);
    expect(res.status(), elsewhere).toBe(303);
    expect(res.headers().location, elsewhere).toBe('/');
  }
  const get = await request.get('/entry-warning', { maxRedirects: 0 });
  expect(get.status()).toBe(302);
  expect(get.headers().location).toBe('/');
});

test('a dismissal from before the cookie (localStorage only) still counts once the page runs, and reaches the cookie', async ({ page }) => {
  await visitor(page, 'DE');
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', '1700000000'));
  await page.goto('/pages/faq');
  await expectNoWarning(page);
  const dismissed = (await page.context().cookies()).find((c) => c.name === 'amora.dismissed');
  expect(dismissed?.value.split('.')).toContain('hide-site-entry-warning');
});

test('a visitor from a country the site does not serve is not shown the warning', async ({ page }) => {
  const elsewhere = ['JP', 'BR', 'IN', 'ZA'].find((c) => !COUNTRIES.includes(c))!;
  await visitor(page, elsewhere);
  await page.goto('/');
  await expectNoWarning(page);
});

test('a signed-in member is not shown the warning', async ({ page }, info) => {
  await visitor(page, 'NL');
  const res = await page.request.post('/api/signup.php', {
    data: { email: `entry.${info.project.name}.${Date.now()}@example.org`, name: 'Kim', password: 'first password', date_of_birth: '1990-03-03', gender: 'female', country: 'NL' },
  });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto('/members');
  await expect(page.getByTestId('header-balance')).toBeVisible();
  await expectNoWarning(page);
});

test('the installed app is not shown the warning', async ({ page }) => {
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (query: string) => (query.includes('display-mode: standalone') ? { ...real(query), matches: true, media: query } as MediaQueryList : real(query));
  });
  await visitor(page, 'NL');
  await page.goto('/?source=app');
  await expectNoWarning(page);
});

test('a site that turns the warning off does not show it; the same visitor sees it on a site that has it on', async ({ page }) => {
  // No test headers here: they would make the CDN origin's module scripts cross-origin requests with a preflight.
  await page.goto(`http://${SECOND_SITE.domain}:${sitePort()}/`);
  await expectNoWarning(page);
  await page.goto(`http://localhost:${sitePort()}/`);
  await expect(page.getByTestId('entry-warning')).toBeVisible();
});
