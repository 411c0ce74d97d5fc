import { expect, hydrated, test } from './fixtures.ts';
import { asStaff, overflowing } from './console-staff.ts';

/**
 * Sites and companies in the console at 1280 px: the admin adds a site of their own (so no other test's site changes),
 * renames it and changes its colours, sees the preview follow before saving, saves, and sees the member page on that
 * site's domain in the new name and colours; a bad colour is refused beside its field. Then a company with a Mollie
 * account, whose key the page never shows again but by its last four characters.
 */
test('an admin edits a site\'s name and colours, sees them on the member page, and adds a company with a payment account', async ({ page, browser, shot, baseURL }) => {
  const port = new URL(baseURL!).port;
  const domain = `sites-${Date.now().toString(36)}.localhost`;
  await asStaff(page, { width: 1280, height: 900 });
  await page.goto('/console');
  await page.getByTestId('console-nav-sites').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sites');
  await page.getByTestId('console-site-new').click();
  await hydrated(page);
  await page.getByLabel('Name', { exact: true }).fill('Console Test');
  await page.getByLabel('Domain', { exact: true }).fill(domain);
  await page.getByLabel('Show the adults-only warning to new visitors').uncheck();
  await page.getByTestId('site-save').click();
  await expect(page.getByTestId('site-saved')).toHaveText('The site has been created.');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Settings of ${domain}`);
  await hydrated(page);

  // The preview follows the unsaved colours.
  const bar = page.getByTestId('site-preview-bar');
  const button = page.getByTestId('site-preview-button');
  await page.getByLabel('Name', { exact: true }).fill('Harbour Hearts');
  await page.getByLabel('Dark colour').fill('#102a43');
  await page.getByLabel('Primary colour').fill('#1d4ed8');
  await expect(bar).toHaveText('Harbour Hearts');
  await expect(bar).toHaveCSS('background-color', 'rgb(16, 42, 67)');
  await expect(button).toHaveCSS('background-color', 'rgb(29, 78, 216)');

  // A colour that is none: its message beside the field, and nothing saved.
  await page.getByLabel('Secondary colour').fill('pinkish');
  await page.getByTestId('site-save').click();
  await expect(page.locator('#site-themeSecondary-error')).toHaveText('Enter a colour as #rrggbb, for example #0f8b8d.');
  await page.getByLabel('Secondary colour').fill('#f97316');
  // Taken to its accessible shade, as the site's stylesheet takes it (white text on it reaches WCAG AA).
  await expect(page.getByTestId('site-preview-badge')).toHaveCSS('background-color', 'rgb(179, 83, 16)');
  await shot('console-site');
  expect(await overflowing(page)).toEqual([]);
  await page.getByTestId('site-save').click();
  await expect(page.getByTestId('site-saved')).toContainText('Saved: Name, Primary colour, Secondary colour, Dark colour.');

  // The member page on the site's domain, as a visitor sees it.
  const visitor = await browser.newPage();
  await visitor.goto(`http://${domain}:${port}/`);
  await expect(visitor.getByTestId('logo')).toHaveText('Harbour Hearts');
  await expect(visitor.getByTestId('top-nav')).toHaveCSS('background-color', 'rgb(16, 42, 67)');
  await expect(visitor.locator('meta[name=theme-color]')).toHaveAttribute('content', '#102a43');
  await visitor.close();

  // A company with a Mollie account.
  await page.goto('/console/sites');
  await page.getByTestId('console-companies-link').click();
  await hydrated(page);
  const form = page.getByTestId('company-new-form');
  await form.getByLabel('Legal name').fill('Harbour Hearts B.V.');
  await form.getByLabel('Address').fill('Havenstraat 1');
  await form.getByLabel('City').fill('Rotterdam');
  await form.getByLabel('Registration number').fill('76543210');
  await form.getByLabel('VAT numbers').fill('NL007654321B01');
  await page.getByTestId('company-create').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour Hearts B.V.');
  await hydrated(page);
  await expect(page.getByTestId('company-account-now')).toHaveText('No payment account: its sites use the built-in test provider.');
  const key = 'test_h4rb0urH34rtsK3y0123456789abcdEFGH';
  await page.getByLabel('Payment provider').selectOption('mollie');
  await page.getByLabel('API key').fill(key);
  await page.getByTestId('company-account-save').click();
  await expect(page.getByTestId('company-account-saved')).toBeVisible();
  await expect(page.getByTestId('company-account-now')).toHaveText('Payments of its sites go through Mollie (key ending in EFGH).');
  await expect(page.getByLabel('API key')).toHaveValue('');
  await expect(page.getByLabel('Payment provider')).toHaveValue('mollie');
  expect(await page.content()).not.toContain(key.slice(5, -4));
  await shot('console-company');
  await page.reload();
  expect(await page.content()).not.toContain(key.slice(5, -4));
});
