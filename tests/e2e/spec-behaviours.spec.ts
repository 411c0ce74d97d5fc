import type { Page, Request } from '@playwright/test';
import { asNewVisitor, demoMembers, signUpByApi } from './account-helpers.ts';
import { acceptEntryWarning, expect, hydrated, openSearchFilters, test } from './fixtures.ts';

/** Behaviours of the specification that work without being seen in any other test (spec sections 2, 7 and 9). */

/**
 * Counts the page's requests to `path` whose answer has arrived. The page schedules its next poll once an answer is
 * in, so a test moves the page's clock on only after that: on a slow machine an answer that arrived after the clock
 * had moved would start the next 60 s from the later time.
 */
function counter(page: Page, path: string, event: 'request' | 'requestfinished' = 'requestfinished'): () => number {
  let n = 0;
  const count = (r: Request) => { if (new URL(r.url()).pathname === path) n++; };
  if (event === 'request') page.on('request', count);
  else page.on('requestfinished', count);
  return () => n;
}

/** Waits for the n-th answer to `path`, then for the page to have run what that answer started. */
async function answered(page: Page, count: () => number, n: number) {
  await expect.poll(count).toBe(n);
  // A message to itself: a task the page's installed clock does not hold back, queued after the answer's own.
  await page.evaluate(() => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(undefined);
    channel.port2.postMessage(null);
  }));
}

test('the conversation list is polled from 5 s after the page, every 60 s; every 300 s once push notifications arrive', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'poll', info.project.name);
  // The page's clock stands still while it loads, so however long that takes, its 5 s start at hydration.
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1_000);
  const chats = counter(page, '/api/chats.php');
  const sent = counter(page, '/api/chats.php', 'request');
  await page.goto('/members');
  await hydrated(page);
  await page.clock.runFor(4_500);
  expect(sent(), 'nothing before 5 s').toBe(0);
  await page.clock.runFor(1_000);
  await answered(page, chats, 1);
  await page.clock.runFor(58_000);
  expect(chats()).toBe(1);
  await page.clock.runFor(2_000);
  await expect.poll(chats).toBe(2);

  // A browser with a push subscription (the push service itself is out of reach here: its subscription is stood in
  // for) polls every 300 s.
  const pushed = await browser.newContext({ storageState: await page.context().storageState(), extraHTTPHeaders: headers });
  await pushed.grantPermissions(['notifications']);
  const other = await pushed.newPage();
  await other.addInitScript(() => {
    const subscription = { endpoint: 'https://push.example.org/subscription', toJSON: () => ({ endpoint: 'https://push.example.org/subscription', keys: { p256dh: 'x', auth: 'y' } }) };
    PushManager.prototype.getSubscription = () => Promise.resolve(subscription as unknown as PushSubscription);
  });
  await other.clock.install();
  const polled = counter(other, '/api/chats.php');
  await other.goto('/members');
  await hydrated(other);
  await expect(other.getByTestId('alert-push')).toHaveCount(0);
  await other.clock.runFor(6_000);
  await answered(other, polled, 1);
  await other.clock.runFor(120_000);
  expect(polled(), 'not at 60 s nor at 120 s').toBe(1);
  await other.clock.runFor(180_000);
  await expect.poll(polled).toBe(2);
  await pushed.close();
});

// These two pages meet refused requests on purpose (the browser logs them as errors): pages of their own, outside the
// fixture that fails a test on any browser error.

test('an API answer 403 authentication_required logs the tab out', async ({ browser }, info) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'ended', info.project.name);
  await page.clock.install();
  await page.goto('/members');
  await hydrated(page);
  // The session ends elsewhere (logged out on another device with the same session).
  const elsewhere = await browser.newContext({ storageState: await context.storageState(), extraHTTPHeaders: headers });
  expect((await elsewhere.request.post('/api/logout.php', { headers: { 'x-request-type': 'client' } })).status()).toBe(200);
  await elsewhere.close();
  // The next poll meets the ended session: the tab goes to the log-in page.
  await page.clock.runFor(6_000);
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
});

test('a conversation that could not be deleted: the member is told, and it is back in the list', async ({ browser }, info) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'undeleted', info.project.name);
  const [partner] = await demoMembers(page.request);
  const sent = await page.request.post('/api/messages.php', { data: { profile_id: partner.id, text: 'Hello!' }, headers: { 'idempotency-key': `undeleted-${Date.now()}` } });
  expect(sent.status(), await sent.text()).toBe(201);
  await page.route('**/api/chat.php', (route) => (route.request().method() === 'DELETE'
    ? route.fulfill({ status: 503, contentType: 'application/json', headers: { 'retry-after': '0' }, body: JSON.stringify({ error: { code: 'unavailable', message: 'The service is busy. Please try again in a moment.' } }) })
    : route.continue()));
  await page.goto('/chats');
  await hydrated(page);
  await expect(page.getByTestId('chat-item')).toHaveCount(1);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  await page.getByTestId('chat-list').getByRole('button', { name: /delete/i }).first().click();
  await expect.poll(() => dialogs.length, { timeout: 30_000 }).toBe(2);
  expect(dialogs[0]).toMatch(/^confirm: /);
  expect(dialogs[1]).toBe('alert: The service is busy. Please try again in a moment.');
  await expect(page.getByTestId('chat-item')).toHaveCount(1);
  await context.close();
});

test.describe('the browser position', () => {
  test.use({ geolocation: { latitude: 52.37, longitude: 4.9 }, permissions: ['geolocation'] });

  test('"near me" accepts a position up to an hour old', async ({ page }) => {
    await page.addInitScript(() => {
      const original = navigator.geolocation.getCurrentPosition.bind(navigator.geolocation);
      (window as unknown as { positionOptions: PositionOptions[] }).positionOptions = [];
      navigator.geolocation.getCurrentPosition = (ok, fail, options) => {
        (window as unknown as { positionOptions: PositionOptions[] }).positionOptions.push(options ?? {});
        original(ok, fail, options);
      };
    });
    await page.goto('/members?country=');
    await acceptEntryWarning(page);
    await openSearchFilters(page);
    await page.getByTestId('near-me').click();
    await expect(page).toHaveURL(/country=NL/);
    const options = await page.evaluate(() => (window as unknown as { positionOptions: PositionOptions[] }).positionOptions);
    expect(options).toEqual([expect.objectContaining({ maximumAge: 3_600_000 })]);
  });
});

test('a browser asking for a language the site does not speak gets English; one it speaks further down its list wins', async ({ browser, request }) => {
  for (const locale of ['ja-JP', 'pt-BR']) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    const answer = await page.goto('/');
    expect(answer?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
    await context.close();
  }
  const page = await request.get('/', { headers: { 'accept-language': 'ja-JP,ja;q=0.9,de;q=0.8,en;q=0.5' } });
  expect(await page.text()).toMatch(/<html lang="de-DE"/);
});
