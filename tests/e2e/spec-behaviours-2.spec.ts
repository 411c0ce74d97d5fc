import type { Browser, Page } from '@playwright/test';
import { asNewVisitor, demoMembers, likeFrom, randomClientIp, signUpByApi } from './account-helpers.ts';
import { acceptEntryWarning, expect, hydrated, openNav, test } from './fixtures.ts';

/** More behaviours of the specification that no other test sees (spec sections 2, 4, 7 and 8). */

/** Counts the page's requests whose path is `path`. */
function counter(page: Page, path: string): () => number {
  let n = 0;
  page.on('request', (r) => { if (new URL(r.url()).pathname === path) n++; });
  return () => n;
}

/** The signed-in member's own id. */
async function myId(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
}

type Timings = { requests: { method: string; path: string; start: number; end: number | null }[]; hydratedAt: number | null };

/**
 * Records in the page, on its own clock (performance.now()), when the page began to run (`<html data-hydrated>`)
 * and when each of its fetches started and answered: delays are measured where they happen, not across processes.
 */
async function recordTimings(page: Page) {
  await page.addInitScript(() => {
    const timings: Timings = { requests: [], hydratedAt: null };
    (window as unknown as { timings: Timings }).timings = timings;
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      const entry = { method, path: url.pathname, start: performance.now(), end: null as number | null };
      timings.requests.push(entry);
      const answer = await original(input, init);
      entry.end = performance.now();
      return answer;
    };
    new MutationObserver((_, observer) => {
      if (document.documentElement?.dataset.hydrated !== 'true') return;
      timings.hydratedAt = performance.now();
      observer.disconnect();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
  });
  return () => page.evaluate(() => (window as unknown as { timings: Timings }).timings);
}

test('starting the time-bonus countdown while it runs does nothing: one countdown ticks, wherever the member goes', async ({ page }, info) => {
  // The live intervals of one second (the countdown's tick) in the page.
  await page.addInitScript(() => {
    const live = new Set<number>();
    const set = window.setInterval.bind(window);
    const clear = window.clearInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
      const id = set(handler, ms, ...args);
      if (ms === 1000) live.add(id);
      return id;
    }) as typeof window.setInterval;
    window.clearInterval = ((id?: number) => {
      if (id !== undefined) live.delete(id);
      clear(id);
    }) as typeof window.clearInterval;
    (window as unknown as { secondTickers: () => number }).secondTickers = () => live.size;
  });
  const tickers = () => page.evaluate(() => (window as unknown as { secondTickers: () => number }).secondTickers());
  const seconds = async () => (await countdown.textContent())!.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'onebonus', info.project.name);
  const welcome = counter(page, '/api/discountcode.php');

  await page.goto('/members');
  const countdown = page.getByTestId('time-bonus-banner').getByTestId('time-bonus-countdown');
  await expect(countdown).toHaveText(/^0[34]:\d\d:\d\d$/);
  await expect.poll(tickers).toBe(1);
  // Through the members area (the banner's layout stays), into the chat's layout (its own countdown, for the modal)
  // and back: always one countdown.
  await openNav(page, 'nav-likes');
  await expect(page).toHaveURL(/\/likes$/);
  await expect(countdown).toBeVisible();
  expect(await tickers()).toBe(1);
  await openNav(page, 'nav-chats');
  await expect(page).toHaveURL(/\/chats$/);
  await expect(page.getByTestId('chat-bar')).toBeVisible();
  await expect.poll(tickers).toBe(1);
  await page.getByTestId('chat-bar').getByTestId('logo').click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(countdown).toBeVisible();
  await expect.poll(tickers).toBe(1);
  // The member is fetched again (the first poll, 5 s after the layout started): the countdown is not started again.
  await page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user.php', { timeout: 15_000 });
  expect(await tickers()).toBe(1);
  // It goes on counting, one second a second.
  const before = await seconds();
  const since = Date.now();
  await expect.poll(async () => before - (await seconds())).toBeGreaterThanOrEqual(2);
  expect(Date.now() - since).toBeGreaterThanOrEqual(1_000);
  expect(await tickers()).toBe(1);
  // The bonus itself was loaded once, with the first page (the server's), and not asked for again.
  expect(welcome()).toBeLessThanOrEqual(1);
});

test('the likes reload 500 ms after the like overlay: the new-likes badge elsewhere, the lists on the likes page', async ({ page, browser }, info) => {
  const timings = await recordTimings(page);
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'likesreload', info.project.name);
  const me = await myId(page);
  const overlay = page.getByTestId('like-overlay');

  // Arriving in the members area in the page's first seconds (before polling starts at 5 s).
  const first = await likeFrom(browser, me, 'likesreload-liker', info.project.name);
  await page.goto('/members');
  await expect(overlay).toHaveAttribute('data-profile-id', String(first));
  /** ms from the automatic like call's answer to the first request for `path` after it (null: none yet). */
  const reloadAfter = async (path: RegExp) => {
    const { requests } = await timings();
    const like = requests.find((r) => r.path === '/api/auto-like.php' && r.end !== null);
    const reload = like && requests.find((r) => r.method === 'GET' && path.test(r.path) && r.start >= like.start);
    return like && reload ? reload.start - like.end! : null;
  };
  await expect.poll(() => reloadAfter(/^\/api\/user\.php$/), { timeout: 4_000 }).not.toBeNull();
  const badge = (await reloadAfter(/^\/api\/user\.php$/))!;
  expect(badge, 'not before 500 ms').toBeGreaterThanOrEqual(500);
  expect(badge, 'soon after 500 ms, long before the first poll').toBeLessThan(1_500);
  await overlay.click({ position: { x: 10, y: 10 } });

  // On the likes page, its lists are what reloads. (The app is left first, for the server's offline page: a like
  // arriving live reloads the lists at once by itself.)
  await page.goto('/offline');
  const second = await likeFrom(browser, me, 'likesreload-liker2', info.project.name);
  await page.goto('/likes');
  await expect(overlay).toHaveAttribute('data-profile-id', String(second));
  await expect.poll(() => reloadAfter(/^\/likes\.data$/), { timeout: 4_000 }).not.toBeNull();
  const lists = (await reloadAfter(/^\/likes\.data$/))!;
  expect(lists).toBeGreaterThanOrEqual(500);
  expect(lists).toBeLessThan(1_500);
});

test('?t= delays the like overlay by that many seconds', async ({ page, browser }, info) => {
  const timings = await recordTimings(page);
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'likedelay', info.project.name);
  const liker = await likeFrom(browser, await myId(page), 'likedelay-liker', info.project.name);
  const overlay = page.getByTestId('like-overlay');
  /** ms from the page's start to the automatic like call. */
  const called = async () => {
    const { requests, hydratedAt } = await timings();
    const like = requests.find((r) => r.path === '/api/auto-like.php');
    return like && hydratedAt !== null ? like.start - hydratedAt : null;
  };

  await page.goto('/members?t=2');
  await expect(overlay).toHaveCount(0);
  await expect(overlay).toHaveAttribute('data-profile-id', String(liker));
  const delayed = (await called())!;
  // The same call without ?t: what this machine needs for it; the delay comes on top.
  await page.goto('/members');
  await expect.poll(called).not.toBeNull();
  const undelayed = (await called())!;
  // The timer starts in the same render as the page's start mark, a few effects before it.
  expect(delayed, 'not before 2 s').toBeGreaterThanOrEqual(1_950);
  expect(delayed - undelayed, 'about 2 s later than without ?t').toBeLessThan(2_000 + 1_000);
  await expect(overlay).toHaveCount(0);
});

test('interests, regions and the company are each fetched at most once in a page\'s life, however often a form needs them', async ({ page }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'fetchonce', info.project.name);
  const regions = counter(page, '/api/regions.php');
  const interests = counter(page, '/api/interests.php');
  const company = counter(page, '/api/companyinfo.php');

  // The sign-up's location step: another country and back again.
  await page.goto('/complete-signup');
  const flow = page.getByTestId('signup-flow');
  await page.getByTestId('signup-skip').click();
  await expect(flow).toHaveAttribute('data-step', 'looking');
  await page.getByTestId('signup-skip').click();
  await expect(flow).toHaveAttribute('data-step', 'location');
  const country = page.locator('#signup-location-country');
  const region = page.locator('#signup-location-region');
  for (const [code, province] of [['NL', 'UT'], ['DE', 'BY'], ['NL', 'UT'], ['DE', 'BY']]) {
    await country.selectOption(code);
    await expect(region.locator(`option[value="${province}"]`)).toHaveCount(1);
  }
  expect(regions()).toBe(1);

  // Then, in the same page life, the profile form (regions of several countries, the interests) and the terms.
  await openNav(page, 'account-dropdown');
  await page.getByTestId('nav-my-profile').click();
  await expect(page).toHaveURL(/\/profile$/);
  const profileCountry = page.locator('#profile-country');
  for (const code of ['DE', 'NL']) {
    await profileCountry.selectOption(code);
    await expect(page.locator('#profile-region option').nth(1)).toBeAttached();
  }
  await expect(page.getByTestId('profile-interests').locator('input').first()).toBeVisible();
  await page.getByTestId('footer').getByRole('link', { name: 'Terms and conditions', exact: true }).click();
  await expect(page).toHaveURL(/\/pages\/terms$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(regions()).toBe(1);
  expect(interests()).toBeLessThanOrEqual(1);
  expect(company()).toBeLessThanOrEqual(1);
});

for (const country of ['NL', 'DE']) {
  test(`a visitor from ${country} on the way into a chat meets the entry warning first; signed in, the chat shows none`, async ({ page, browser }, info) => {
    // The member's account, made elsewhere.
    const elsewhere = await browser.newContext();
    const made = await elsewhere.newPage();
    const { email, password } = await signUpByApi(made, await asNewVisitor(made), `chatwarning-${country.toLowerCase()}`, info.project.name);
    await elsewhere.close();
    const [partner] = await demoMembers(page.request);

    // A first visit from the country, straight to a chat (a link in a mail): the chat asks to log in first.
    await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': randomClientIp(), 'x-country-code': country });
    await page.goto(`/members/${partner.id}/chat`);
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await expect(page.getByTestId('entry-warning')).toBeVisible();
    await acceptEntryWarning(page);
    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(new RegExp(`/members/${partner.id}/chat$`));
    await expect(page.getByTestId('chat-bar')).toBeVisible();
    await expect(page.getByTestId('entry-warning')).toHaveCount(0);
    // Next time, signed in, straight into a chat: no warning either.
    await page.goto('/chats');
    await expect(page.getByTestId('chat-bar')).toBeVisible();
    await expect(page.getByTestId('entry-warning')).toHaveCount(0);
  });
}

// The error pages meet a refused form or a lost connection on purpose (the browser logs them as errors): pages of
// their own, outside the fixture that fails a test on any browser error.

/** A new member in a browser of their own that speaks German; answers the page. */
async function germanMember(browser: Browser, prefix: string, project: string, baseURL: string) {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'locale', value: 'de', url: baseURL }]);
  const page = await context.newPage();
  await signUpByApi(page, await asNewVisitor(page), prefix, project);
  return page;
}

test('a page that cannot be shown: the error page with its status, "Error" in the member\'s language and the way home', async ({ browser, baseURL }, info) => {
  const page = await germanMember(browser, 'errorpage', info.project.name, baseURL!);
  await page.goto('/notifications');
  await hydrated(page);
  // A form the page does not know (an old tab after a deploy, a forged post) is refused with 400.
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/notifications' && r.request().method() === 'POST');
  await page.evaluate(() => {
    const form = Object.assign(document.createElement('form'), { method: 'post', action: '/notifications' });
    form.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'intent', value: 'no-such-form' }));
    document.body.append(form);
    form.submit();
  });
  expect((await answer).status()).toBe(400);
  const error = page.getByTestId('error-page');
  await expect(error).toHaveAttribute('data-status', '400');
  await expect(error.getByRole('heading', { level: 1 })).toHaveText('400');
  await expect(error.locator('.lead')).toHaveText('Fehler');
  await expect(error.getByRole('link', { name: 'Zur Startseite', exact: true })).toHaveAttribute('href', '/');
  // Inside the navigation and the footer: the member can go on from here.
  await expect(page.getByTestId('footer')).toBeVisible();
  await page.context().close();
});

test('the 500 page: data that cannot be loaded (the connection drops) shows "Error" in the page\'s language and the way home', async ({ browser, baseURL }, info) => {
  const page = await germanMember(browser, 'errorpage500', info.project.name, baseURL!);
  await page.goto('/members');
  await hydrated(page);
  await page.route(/\/likes\.data(\?|$)/, (route) => route.abort('internetdisconnected'));
  await openNav(page, 'nav-likes');
  const error = page.getByTestId('error-page');
  await expect(error).toHaveAttribute('data-status', '500');
  await expect(error.getByRole('heading', { level: 1 })).toHaveText('500');
  await expect(error.locator('.lead')).toHaveText('Fehler');
  const home = error.getByRole('link', { name: 'Zur Startseite', exact: true });
  await expect(home).toHaveAttribute('href', '/');
  // The connection is back: the way home works (a member's home is the search).
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await home.click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(error).toHaveCount(0);
  await page.context().close();
});
