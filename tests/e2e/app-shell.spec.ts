import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, likeFrom, signUpByApi } from './account-helpers.ts';

test('the site is an installable app: manifest linked, service worker registered, and it starts offline on its own page', async ({ page, context, shot }) => {
  await asNewVisitor(page);
  await page.goto('/');
  // The home page runs (and registers the worker) once the visitor interacts.
  await hydrated(page);
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/?source=app' });
  expect(manifest.icons.length).toBeGreaterThanOrEqual(2);

  // The worker controls the page once it is active (it claims open pages).
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await context.setOffline(true);
  await page.goto('/').catch(() => undefined);
  await expect(page.getByTestId('offline-page')).toBeVisible();
  await expect(page.getByRole('heading')).toHaveText("You're offline");
  await shot('offline-start');
  await context.setOffline(false);
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByTestId('offline-page')).toBeHidden();
});

test('in the installed app a back button appears on the spec\'s routes once there is history; the app badge counts new likes', async ({ page, browser }, info) => {
  // The app runs installed (display-mode: standalone) and records what it asks of the badge.
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (query: string) => (query.includes('display-mode: standalone') ? { ...real(query), matches: true, media: query } as MediaQueryList : real(query));
    const calls: (number | null)[] = [];
    (window as unknown as { badgeCalls: (number | null)[] }).badgeCalls = calls;
    Object.assign(navigator, {
      setAppBadge: async (n?: number) => { calls.push(n ?? null); },
      clearAppBadge: async () => { calls.push(0); },
    });
  });
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'installed', info.project.name);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

  await page.goto('/members');
  await expect(page.getByTestId('back-button')).toHaveCount(0);
  await page.goto('/credits');
  await expect(page.getByTestId('back-button')).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByTestId('back-button')).toHaveCount(0);

  // Someone likes the member: the badge shows it on the next page.
  await likeFrom(browser, me, 'badge-liker', info.project.name);
  await page.goto('/credits');
  await expect.poll(() => page.evaluate(() => (window as unknown as { badgeCalls: (number | null)[] }).badgeCalls.at(-1))).toBe(1);
  await page.getByTestId('back-button').click();
  await expect(page).toHaveURL(/\/profile$/);
});
