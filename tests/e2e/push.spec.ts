import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { latestMail, linkIn } from './account-helpers.ts';

let n = 0;
/** A new member, signed in in this browser context (no photo, e-mail not confirmed). */
async function newMember(page: Page, info: { project: { name: string } }) {
  // Each member from its own address: sign-ups are rate-limited per address.
  const ip = `10.${n % 250}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  const res = await page.request.post('/api/signup.php', {
    headers: { 'x-forwarded-for': ip },
    data: {
      email: `push.${info.project.name}.${Date.now()}.${++n}@example.org`, name: 'Pushy', password: 'push-password-1',
      date_of_birth: '1990-01-01', gender: 'female', country: 'NL',
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).user as { id: number; email: string };
}

/**
 * One alert shows at a time, the most important first: the push offer comes once the e-mail address
 * is confirmed and the photo reminder was dismissed.
 */
async function memberOfferedPush(page: Page, info: { project: { name: string } }) {
  const user = await newMember(page, info);
  await page.goto(linkIn(await latestMail(page.request, user.email, 'activation'), '/api/activate.php'));
  await page.evaluate(() => localStorage.setItem('hide-enrich-alert', String(Math.floor(Date.now() / 1000))));
  return user;
}

async function serverPushState(page: Page) {
  return (await (await page.request.get('/api/push.php')).json()).push.state as string;
}

/** The service worker's global scope, as far as these tests use it. */
type SwScope = { clients: { matchAll(o: object): Promise<{ postMessage(m: unknown): void }[]> } };

async function serviceWorker(context: BrowserContext) {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

test('push: offered when capable, permission granted goes as far as the browser\'s push service allows', async ({ page, context, shot }, info) => {
  await context.grantPermissions(['notifications']);
  await memberOfferedPush(page, info);
  await page.goto('/members');
  const alert = page.getByTestId('alert-push');
  await expect(alert).toBeVisible();
  await expect(page.getByTestId('push-settings')).toHaveAttribute('data-state', 'not_subscribed');
  // The alert's close button lies beside its "Turn on notifications" button, not over it.
  const close = (await alert.getByRole('button', { name: 'Close' }).boundingBox())!;
  const enable = (await page.getByTestId('push-enable').boundingBox())!;
  const apart = close.x >= enable.x + enable.width || close.y >= enable.y + enable.height || enable.y >= close.y + close.height;
  expect(apart, `close ${JSON.stringify(close)} overlaps enable ${JSON.stringify(enable)}`).toBe(true);
  await shot('push-alert');
  const posted: unknown[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/user.php?push=1')) posted.push(r.postDataJSON()); });
  await page.getByTestId('push-enable').click();
  // Headless Chromium has no push service to register with offline: either the subscription is made
  // and posted, or the browser's refusal is shown and nothing is recorded as subscribed.
  await expect(page.getByTestId('push-settings').locator('[data-testid="push-error"], [data-testid="push-disable"]').first()).toBeVisible({ timeout: 20_000 });
  const state = await page.getByTestId('push-settings').getAttribute('data-state');
  if (state === 'subscribed') {
    expect(posted).toHaveLength(1);
    expect((posted[0] as { subscription: { endpoint: string } }).subscription.endpoint).toMatch(/^https:\/\//);
    expect(await serverPushState(page)).toBe('subscribed');
  } else {
    expect(state).toBe('not_subscribed');
    await expect(page.getByTestId('push-error')).toHaveText('Notifications could not be switched on or off. Please try again.');
    expect(await serverPushState(page)).toBe('unknown');
  }
  await shot('push-after-enable');
});

test('push: a refused permission is recorded as denied and the offer disappears', async ({ page }, info) => {
  // The browser's permission prompt answers "Block".
  await page.addInitScript(() => {
    Object.defineProperty(Notification, 'requestPermission', { value: async () => 'denied' });
  });
  await memberOfferedPush(page, info);
  await page.goto('/members');
  await page.getByTestId('push-enable').click();
  await expect(page.getByTestId('alert-push')).toBeHidden();
  await expect.poll(() => serverPushState(page)).toBe('denied');
});

test('push: the service worker\'s click message navigates in-app when signed in', async ({ page, context }, info) => {
  await newMember(page, info);
  await page.goto('/members');
  const sw = await serviceWorker(context);
  await expect.poll(() => sw.evaluate(async () => (await (self as unknown as SwScope).clients.matchAll({ type: 'window' })).length)).toBeGreaterThan(0);
  // NEW_PUSH_MESSAGE refreshes the member's counters at once.
  const refreshed = page.waitForRequest((r) => r.url().endsWith('/api/user.php') && r.method() === 'GET');
  await sw.evaluate(async () => {
    for (const c of await (self as unknown as SwScope).clients.matchAll({ type: 'window' })) c.postMessage({ type: 'NEW_PUSH_MESSAGE', data: { title: 'x' } });
  });
  await refreshed;
  await sw.evaluate(async () => {
    for (const c of await (self as unknown as SwScope).clients.matchAll({ type: 'window' })) {
      c.postMessage({ type: 'NEW_PUSH_CLICK', data: { checkUrl: '/likes', openUrl: '/likes' } });
    }
  });
  await expect(page).toHaveURL(/\/likes$/);
});

test('alerts: one at a time, the most important first; a dismissed one makes room for the next on a later page view', async ({ page, context, shot }, info) => {
  await context.grantPermissions(['notifications']);
  const user = await newMember(page, info);
  await page.goto('/members');
  // Not confirmed, no photo, push possible: only the activation reminder shows.
  await expect(page.getByTestId('alert-activation')).toBeVisible();
  await expect(page.getByTestId('push-enable')).toHaveCount(0);
  await expect(page.getByTestId('alert-photo')).toHaveCount(0);
  await expect(page.getByTestId('alert-push')).toHaveCount(0);
  await shot('alerts');

  // Confirmed: the photo reminder comes next.
  await page.goto(linkIn(await latestMail(page.request, user.email, 'activation'), '/api/activate.php'));
  await page.goto('/members');
  const photo = page.getByTestId('alert-photo');
  await expect(photo).toBeVisible();
  await expect(photo.getByRole('link', { name: 'Add a photo' })).toHaveAttribute('href', '/profile#photos');
  await expect(page.getByTestId('alert-activation')).toHaveCount(0);
  await expect(page.getByTestId('alert-push')).toHaveCount(0);
  await shot('alerts-photo');
  const before = Math.floor(Date.now() / 1000);
  await photo.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(photo).toBeHidden();
  // The next one waits for the next page view.
  await expect(page.getByTestId('alert-push')).toHaveCount(0);
  expect(Number(await page.evaluate(() => localStorage.getItem('hide-enrich-alert')))).toBeGreaterThanOrEqual(before);

  await page.reload();
  const push = page.getByTestId('alert-push');
  await expect(push).toBeVisible();
  await expect(page.getByTestId('alert-photo')).toHaveCount(0);
  await push.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(push).toBeHidden();
  expect(Number(await page.evaluate(() => localStorage.getItem('hide-push-notification-alert')))).toBeGreaterThanOrEqual(before);
  await page.reload();
  await expect(page.getByTestId('num-results')).toBeVisible();
  await expect(page.getByTestId('alert-photo')).toHaveCount(0);
  await expect(page.getByTestId('alert-push')).toHaveCount(0);
});

test('alerts: the activation reminder resends the link', async ({ page }, info) => {
  await newMember(page, info);
  await page.goto('/members');
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/activation-mail.php') && r.request().method() === 'POST');
  await page.getByTestId('alert-activation').getByTestId('activation-resend').click();
  expect((await sent).status()).toBe(200);
  await expect(page.getByTestId('activation-resent')).toHaveText('A new link is on its way.');
});

test('alerts: disabled e-mail notifications link to the settings and can be dismissed', async ({ page, shot }, info) => {
  test.setTimeout(90_000);
  const user = await newMember(page, info);
  // The polled user reports a bounce (the first poll runs 5 s after the page loads).
  await page.route('**/api/user.php', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const res = await route.fetch();
    const json = await res.json();
    json.user.notifications_disabled = ['bounce'];
    await route.fulfill({ response: res, json });
  });
  await page.goto('/members');
  const alert = page.getByTestId('alert-disabled-notifications');
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expect(alert).toContainText('We stopped sending you e-mails. Your e-mails bounced.');
  await expect(alert.getByRole('link')).toHaveAttribute('href', '/notifications');
  // With disabled notifications there is no activation reminder (spec section 4).
  await expect(page.getByTestId('alert-activation')).toHaveCount(0);
  await shot('alert-disabled-notifications');
  await alert.getByRole('button', { name: 'Close', exact: true }).click();
  expect(Number(await page.evaluate(() => localStorage.getItem('hide-disabled-notifications-alert')))).toBeGreaterThan(0);
  expect(user.id).toBeGreaterThan(0);
});

test('the page-hidden beacon is sent when the page becomes hidden', async ({ page }, info) => {
  await page.addInitScript(() => {
    const w = window as unknown as { beacons: { url: string; status: number }[]; calls: number };
    w.beacons = [];
    w.calls = 0;
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      w.calls += 1;
      // Also sent for real; the answer is checked with the same request by fetch.
      void fetch(String(url), { method: 'POST', body: data as Blob, headers: { 'content-type': 'application/json' } }).then((r) => w.beacons.push({ url: String(url), status: r.status }));
      return send(url, data);
    };
  });
  await newMember(page, info);
  await page.goto('/members');
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.evaluate(() => Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }));
  // The listener is attached once the page is interactive: hide the page until a beacon goes out
  // (counted when sent, so a slow answer does not make the test hide the page twice).
  await expect.poll(() => page.evaluate(() => {
    const w = window as unknown as { beacons: unknown[]; calls: number };
    if (!w.calls) document.dispatchEvent(new Event('visibilitychange'));
    return w.beacons;
  }), { timeout: 15_000 }).toEqual([{ url: '/api/page-hidden.php', status: 204 }]);
});
