import { expect, test } from './fixtures.ts';
import { randomClientIp } from './account-helpers.ts';
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

type LanderRow = { lander: string; visits: number; signups: number; activations: number; first_purchases: number };

/**
 * A visitor opens a lander in their own browser (a desktop Chrome's user agent: the test browser's headless one is
 * a bot's), and the dashboard's visits grow by one, in the total and in today's row, with sign-ups per visit beside them.
 * They sign up from the lander's call to action: the sign-up is counted on that lander's row of the table per lander.
 */
test('a visitor\'s view of a lander and their sign-up from it show in the reports dashboard', async ({ page, browser, baseURL, shot }) => {
  await asStaff(page);
  const dashboard = async () => (await page.request.get('/api/reports-dashboard.php')).json() as Promise<{ totals: { visits: number }; by_lander: LanderRow[] }>;
  const galleryRow = async () => (await dashboard()).by_lander.find((row) => row.lander === 'gallery') ?? { visits: 0, signups: 0 };
  const before = (await dashboard()).totals.visits;
  const galleryBefore = await galleryRow();

  const visitor = await browser.newContext({
    baseURL, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
    // A client address of its own: the sign-up limit per address is not shared with other tests.
    extraHTTPHeaders: { 'x-forwarded-for': randomClientIp() },
  });
  const lander = await visitor.newPage();
  expect((await lander.goto('/landers/gallery'))?.status()).toBe(200);
  // Reloading within half an hour is the same visit.
  await lander.reload();
  expect((await dashboard()).totals.visits).toBe(before + 1);

  // The lander's call to action opens the sign-up (a modal at this width); the account step makes the member.
  await lander.getByTestId('lander-signup').click();
  await expect(lander.getByTestId('signup-modal')).toBeVisible();
  await lander.locator('#signup-email').fill(`lander.${Date.now()}@example.org`);
  await lander.locator('#signup-name').fill('Lander');
  await lander.locator('#signup-password').fill('came-from-the-gallery');
  await lander.locator('#signup-dob').fill('1989-05-06');
  await lander.locator('#signup-gender').selectOption('male');
  await lander.locator('#signup-country').selectOption('NL');
  await lander.getByTestId('signup-submit').click();
  await expect(lander.getByTestId('signup-flow')).toHaveAttribute('data-step', 'photo');
  await visitor.close();
  expect(await galleryRow()).toMatchObject({ visits: galleryBefore.visits + 1, signups: galleryBefore.signups + 1 });

  await page.goto('/console/reports');
  await expect(page.getByTestId('reports-visits')).toHaveText(String(before + 1));
  await expect(page.getByTestId('reports-visit-conversion')).not.toHaveText('');
  const table = page.getByTestId('reports-members-table');
  await expect(table.locator('thead th').nth(1)).toHaveText('Visits');
  // Today is the last row; its visits include this one.
  expect(Number(await table.locator('tbody tr').last().locator('td').first().textContent())).toBeGreaterThanOrEqual(1);
  // The table per lander: the gallery's row with its visits and sign-ups, and its sign-ups per visit in percent.
  const gallery = page.getByTestId('reports-by_lander').locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: 'gallery', exact: true }) });
  await expect(gallery.locator('td').nth(0)).toHaveText(String(galleryBefore.visits + 1));
  await expect(gallery.locator('td').nth(1)).toHaveText(String(galleryBefore.signups + 1));
  await expect(gallery.locator('td').nth(4)).toHaveText(/^\d+(\.\d)?%$/);
  await page.getByTestId('reports-totals').scrollIntoViewIfNeeded();
  await shot('console-reports-visits');
  await page.getByTestId('reports-by_lander').scrollIntoViewIfNeeded();
  await shot('console-reports-by-lander');
});
