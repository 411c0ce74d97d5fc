import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { signInToConsole, STAFF } from './console-staff.ts';

/**
 * The audit log screen at 1280 px: an API token made on the account page (shown once) is in the log under the admin's
 * name; a filter narrows the list to it; the CSV export carries the same rows.
 */
test('an admin makes a token, finds it in the audit log with a filter and exports the rows as CSV', async ({ page, shot }) => {
  await signInToConsole(page, STAFF.recoveryCodes[0]);

  await page.getByTestId('console-nav-account').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
  await page.getByLabel('Name', { exact: true }).fill('nightly export');
  await page.getByLabel('Moderator').check();
  await page.getByTestId('console-create-token').click();
  await expect(page.getByTestId('console-new-token')).toContainText('amora_st_');
  await expect(page.getByTestId('console-tokens')).toContainText('nightly export');
  await shot('console-account');

  await page.getByTestId('console-nav-audit').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await shot('console-audit');

  await page.getByLabel('Action', { exact: true }).fill('staff.api_token.create');
  await page.getByTestId('audit-apply').click();
  await expect(page).toHaveURL(/action=staff\.api_token\.create/);
  const rows = page.getByTestId('audit-row');
  // The browser tests' own tokens (npm run staff:token: the admin's, the second moderator's and finance's) and the one made here.
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId('audit-total')).toHaveText('4 entries');
  await expect(rows.first()).toContainText('nightly export');
  await expect(rows.first()).toContainText('Ada Admin');
  for (const row of await rows.all()) await expect(row).toContainText('staff.api_token.create');
  await shot('console-audit-filtered');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
  expect(csv[0]).toBe('id,at,staff_id,staff_name,role,action,object_type,object_id,member_id,ip,before,after');
  expect(csv).toHaveLength(5);
  expect(csv.slice(1).every((line) => line.includes(',staff.api_token.create,'))).toBe(true);
  expect(csv[1]).toContain('nightly export');
});
