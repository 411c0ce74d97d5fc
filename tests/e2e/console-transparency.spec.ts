import { expect, test } from './fixtures.ts';
import { asStaff, overflowing } from './console-staff.ts';

/**
 * The DSA transparency report at 1280 px: the admin reaches it from the navigation; its figures are the API's for the
 * same period and site; a period with nothing in it shows zeros and that nothing was decided; a period that ends before
 * it starts is refused with a message; the CSV download carries the period's figures.
 */
test('an admin reads the transparency report for a period and a site, and downloads it as CSV', async ({ page, shot }) => {
  await asStaff(page);
  await page.goto('/console');
  await page.getByTestId('console-nav-transparency').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transparency report');
  const year = new Date().toISOString().slice(0, 4);
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(`${year}-01-01`);

  const figure = (table: string, key: string) => page.getByTestId(table).locator(`tr[data-key="${key}"] td`).first();
  const api = async (query: string) => (await page.request.get(`/api/transparency-report.php?${query}`)).json();
  const thisYear = await api(`from=${year}-01-01&to=${new Date().toISOString().slice(0, 10)}`);
  await expect(figure('transparency-notices-summary', 'received')).toHaveText(String(thisYear.notices.received));
  await expect(figure('transparency-decisions-summary', 'total')).toHaveText(String(thisYear.decisions.total));
  await expect(figure('transparency-appeals-summary', 'received')).toHaveText(String(thisYear.appeals.received));
  await shot('console-transparency');
  expect(await overflowing(page)).toEqual([]);

  // One site, a year that had nothing.
  const site = page.getByLabel('Site', { exact: true });
  const siteId = await site.locator('option').nth(1).getAttribute('value');
  await site.selectOption(siteId!);
  await page.getByLabel('From', { exact: true }).fill('2020-01-01');
  await page.getByLabel('To', { exact: true }).fill('2020-12-31');
  await page.getByTestId('transparency-apply').click();
  await expect(page).toHaveURL(new RegExp(`from=2020-01-01&to=2020-12-31&site=${siteId}`));
  await expect(page.getByTestId('transparency-period')).toHaveText('Figures from Jan 1, 2020 to Dec 31, 2020');
  await expect(figure('transparency-notices-summary', 'received')).toHaveText('0');
  await expect(figure('transparency-notices-summary', 'median')).toHaveText('nothing decided');
  await expect(page.getByTestId('transparency-by-ground').locator('tbody tr')).toHaveCount(11);

  // The link downloads what the API answers (fetched here with the page's token, which a download would not carry).
  const href = await page.getByTestId('transparency-export').getAttribute('href');
  expect(href).toBe(`/api/transparency-report.csv?from=2020-01-01&to=2020-12-31&site=${siteId}`);
  const response = await page.request.get(href!);
  expect(response.headers()['content-disposition']).toBe(`attachment; filename="transparency-${siteId}-2020-01-01-2020-12-31.csv"`);
  const csv = (await response.text()).trimEnd().split('\r\n');
  expect(csv[0]).toBe('section,item,count');
  expect(csv).toContain('notices,received,0');
  expect(csv).toContain('appeals,median_hours_to_decision,');

  // A period that ends before it starts: the message, and this year's figures instead.
  await page.goto('/console/transparency?from=2026-02-01&to=2026-01-01');
  await expect(page.getByRole('alert')).toHaveText('The period is not valid: it must end on or after its first day and span at most five years.');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(`${year}-01-01`);
});

test('a moderator has no transparency report', async ({ page }) => {
  await asStaff(page, undefined, 'moderator');
  await page.goto('/console');
  await expect(page.getByTestId('console-nav-queues')).toBeVisible();
  await expect(page.getByTestId('console-nav-transparency')).toHaveCount(0);
  expect((await page.request.get('/console/transparency')).status()).toBe(403);
  expect((await page.request.get('/api/transparency-report.php')).status()).toBe(403);
});
