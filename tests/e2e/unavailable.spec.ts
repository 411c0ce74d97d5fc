import { mkdirSync, readFileSync } from 'node:fs';
import { test as base, expect } from '@playwright/test';
import { hydrated, SCREENSHOT_DIR } from './fixtures.ts';

// The browser logs the refused data requests on its console: that is the situation under test, so this file uses
// Playwright's plain `test` (the shared fixture fails a test on console errors). The service worker is kept out so
// that the test's network rule sees every data request.
const test = base.extend({});
test.use({ serviceWorkers: 'block' });

/**
 * Issue 28, item 5: a navigation whose `.data` request meets a 503 that is not the pages' own (admission control's
 * JSON, a proxy's text) showed that text as the error, or no page at all. It shows the unavailable page, in the
 * visitor's language, and its button loads the page again.
 */
test('a navigation refused with 503 shows the unavailable page in the visitor\'s language, and trying again opens the page', async ({ page, baseURL }) => {
  const nl = JSON.parse(readFileSync('locales/nl.json', 'utf8')) as {
    errors: { overloaded: string; unavailable: string }; error_page: { try_again: string }; footer: { pricing: string; complaints: string };
  };
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.context().addCookies([{ name: 'locale', value: 'nl', url: baseURL! }]);
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  await page.goto('/pages/terms');
  await hydrated(page);

  // Admission control refuses the data request of a navigation to the prices (its JSON, in the visitor's language).
  await page.route(/\/pricing\.data(\?|$)/, (route) => route.fulfill({
    status: 503, contentType: 'application/json', headers: { 'Retry-After': '1' },
    body: JSON.stringify({ error: { code: 'overloaded', message: nl.errors.overloaded } }),
  }));
  await page.getByTestId('footer').getByRole('link', { name: nl.footer.pricing }).click();
  const errorPage = page.getByTestId('error-page');
  await expect(errorPage).toHaveAttribute('data-status', '503');
  await expect(errorPage).toContainText(nl.errors.overloaded);
  await expect(errorPage).not.toContainText('{');
  // The root's data went with the refusal: the page keeps the language it was in.
  await expect(errorPage.getByRole('link', { name: nl.error_page.try_again })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl-NL');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/desktop-unavailable-navigation.png` });

  // A proxy's 503 says nothing the page can read: the page's own words.
  await page.route(/\/complaints\.data(\?|$)/, (route) => route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Temporarily Unavailable</h1>' }));
  await page.goto('/pages/terms');
  await hydrated(page);
  await page.getByTestId('footer').getByRole('link', { name: nl.footer.complaints }).click();
  await expect(page).toHaveURL(/\/complaints$/);
  await expect(errorPage).toContainText(nl.errors.unavailable);
  await expect(errorPage).not.toContainText('Service Temporarily Unavailable');

  // The service is back: trying again loads the page.
  await page.unrouteAll();
  await errorPage.getByRole('link', { name: nl.error_page.try_again }).click();
  await expect(page).toHaveURL(/\/complaints$/);
  await hydrated(page);
  await expect(errorPage).toHaveCount(0);
  await expect(page.locator('main')).toBeVisible();
  expect(pageErrors).toEqual([]);
});
