import { expect, test } from './fixtures.ts';
import { asStaff, overflowing } from './console-staff.ts';

/**
 * The reports dashboard at 1280 px: reached from the navigation, it shows the last 30 days per day; switching to weeks
 * keeps the period and regroups the charts and their tables; the revenue per payment method downloads as CSV.
 */
test('an admin reads the reports dashboard, groups it by week and downloads a table as CSV', async ({ page, shot }) => {
  await asStaff(page);
  await page.goto('/console');
  await page.getByTestId('console-nav-reports').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.getByTestId('reports-members-table').locator('tbody tr')).toHaveCount(30);
  await expect(page.getByTestId('reports-members-table-chart').locator('svg[role="img"]')).toBeVisible();

  const from = await page.getByLabel('From', { exact: true }).inputValue();
  const to = await page.getByLabel('To', { exact: true }).inputValue();
  await page.getByLabel('Per', { exact: true }).selectOption('week');
  await page.getByTestId('reports-apply').click();
  await expect(page).toHaveURL(new RegExp(`from=${from}&to=${to}&bucket=week`));
  const weeks = await (await page.request.get(`/api/reports-dashboard.php?from=${from}&to=${to}&bucket=week`)).json();
  await expect(page.getByTestId('reports-messages-table').locator('tbody tr')).toHaveCount(weeks.activity.length);
  await expect(page.getByTestId('reports-messages-table-chart').locator('rect').first()).toBeAttached();
  await shot('console-reports');
  expect(await overflowing(page)).toEqual([]);

  const href = await page.getByTestId('reports-by_method-csv').getAttribute('href');
  expect(href).toBe(`/api/reports-dashboard.csv?from=${from}&to=${to}&bucket=week&table=by_method`);
  // The link's file, fetched with the page's token (which a browser download would not carry).
  const response = await page.request.get(href!);
  expect(response.headers()['content-disposition']).toBe(`attachment; filename="by_method-all-${from}-${to}-week.csv"`);
  const csv = (await response.text()).trimEnd().split('\r\n');
  expect(csv[0]).toBe('key,currency,orders,cents');
  expect(csv.length - 1).toBe(weeks.by_method.length);
});

/**
 * A visitor opens a lander in their own browser (a desktop Chrome's user agent: the test browser's headless one is
 * a bot's), and the dashboard's visits grow by one, in the total and in today's row, with sign-ups per visit beside them.
 */
test('a visitor\'s view of a lander shows in the reports dashboard as a visit', async ({ page, browser, baseURL, shot }) => {
  await asStaff(page);
  const visitsNow = async () => (await (await page.request.get('/api/reports-dashboard.php')).json()).totals.visits as number;
  const before = await visitsNow();

  const visitor = await browser.newContext({
    baseURL, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  });
  const lander = await visitor.newPage();
  expect((await lander.goto('/landers/gallery'))?.status()).toBe(200);
  // Reloading within half an hour is the same visit.
  await lander.reload();
  await visitor.close();
  expect(await visitsNow()).toBe(before + 1);

  await page.goto('/console/reports');
  await expect(page.getByTestId('reports-visits')).toHaveText(String(before + 1));
  await expect(page.getByTestId('reports-visit-conversion')).not.toHaveText('');
  const table = page.getByTestId('reports-members-table');
  await expect(table.locator('thead th').nth(1)).toHaveText('Visits');
  // Today is the last row; its visits include this one.
  expect(Number(await table.locator('tbody tr').last().locator('td').first().textContent())).toBeGreaterThanOrEqual(1);
  await page.getByTestId('reports-totals').scrollIntoViewIfNeeded();
  await shot('console-reports-visits');
});
