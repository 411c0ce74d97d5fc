import { test as base, expect } from '@playwright/test';
import { hydrated, openNav } from './fixtures.ts';

// React Router logs a failed route chunk on the console before it reloads: that is the behaviour under
// test, so this file uses Playwright's plain `test` (the shared fixture fails a test on console errors).
// The service worker is kept out so that the test's network rule sees every request for code.
const test = base.extend({});
test.use({ serviceWorkers: 'block' });

test('a route chunk that fails to load reloads the page once; a second failure within a minute says so instead of reloading again', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000)));
    sessionStorage.setItem('loads', String(Number(sessionStorage.getItem('loads') ?? 0) + 1));
  });
  // While the page reloads there is no document to ask: that reads as -1 and the poll asks again.
  const loads = () => page.evaluate(() => Number(sessionStorage.getItem('loads'))).catch(() => -1);
  await page.goto('/');
  await hydrated(page);
  expect(await loads()).toBe(1);

  // A deploy replaced the log-in page's code: the old file is gone.
  await page.route(/\/assets\/login-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await openNav(page, 'login-button');
  await expect.poll(loads).toBe(2);
  await hydrated(page);
  await expect(page.getByTestId('chunk-failed')).toHaveCount(0);

  await openNav(page, 'login-button');
  await expect(page.getByTestId('chunk-failed')).toBeVisible();
  await expect(page.getByTestId('chunk-failed')).toContainText('This page could not be loaded');
  // The notice is the choice made instead of a reload: the page stays.
  expect(await loads()).toBe(2);

  // The file is back (or the connection): the button on the notice reloads, and the page opens.
  await page.unroute(/\/assets\/login-[^/]+\.js$/);
  await page.getByTestId('chunk-failed').getByRole('button', { name: 'Reload' }).click();
  await expect.poll(loads).toBe(3);
  await hydrated(page);
  await openNav(page, 'login-button');
  await expect(page).toHaveURL(/\/login$/);
});
