import type { Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';

/** The adults-only warning was dismissed before: these tests are about the footer and the pages. */
async function skipEntryWarning(page: Page) {
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
}

test.describe('a visitor from the US (the CDN names the country)', () => {
  test.use({ extraHTTPHeaders: { 'x-country-code': 'US' } });

  test('sees the US footer links, which lead to the sections of the US privacy notice', async ({ page, shot }) => {
    await skipEntryWarning(page);
    await page.goto('/pages/faq');
    await hydrated(page);
    const footer = page.getByTestId('footer');
    const choices = footer.getByRole('link', { name: 'Your Privacy Choices', exact: true });
    const notice = footer.getByRole('link', { name: 'Notice at Collection', exact: true });
    await expect(choices).toHaveAttribute('href', '/pages/privacy#your-privacy-choices');
    await expect(notice).toHaveAttribute('href', '/pages/privacy#notice-at-collection');
    await footer.scrollIntoViewIfNeeded();
    await shot('footer-us');

    await notice.click();
    await expect(page).toHaveURL(/\/pages\/privacy#notice-at-collection$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy for US Residents');
    await expect(page.locator('#notice-at-collection')).toBeInViewport();
    await shot('privacy-us-notice');

    await page.getByTestId('footer').getByRole('link', { name: 'Your Privacy Choices', exact: true }).click();
    await expect(page).toHaveURL(/#your-privacy-choices$/);
    await expect(page.locator('#your-privacy-choices')).toBeInViewport();
    await expect(page.getByText('We do not sell your personal information')).toBeAttached();

    // Loaded directly, the server renders the US notice too.
    const html = await (await page.request.get('/pages/privacy')).text();
    expect(html).toContain('Privacy Policy for US Residents');
    expect(html).toContain('id="your-privacy-choices"');
  });

  test('reading Dutch, gets the Dutch privacy page, with the US links in Dutch', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'locale', value: 'nl', url: baseURL! }]);
    await skipEntryWarning(page);
    await page.goto('/pages/privacy');
    await hydrated(page);
    await expect(page.locator('html')).toHaveAttribute('lang', /^nl/);
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Privacy Policy for US Residents');
    await expect(page.locator('#notice-at-collection')).toHaveCount(0);
    await expect(page.getByTestId('footer').getByRole('link', { name: 'Jouw privacykeuzes', exact: true })).toBeVisible();
    await expect(page.getByTestId('footer').getByRole('link', { name: 'Kennisgeving bij verzameling', exact: true })).toBeVisible();
  });
});

test.describe('a visitor from the Netherlands', () => {
  test.use({ extraHTTPHeaders: { 'x-country-code': 'NL' } });

  test('sees the usual footer and the GDPR privacy policy', async ({ page, shot }) => {
    await skipEntryWarning(page);
    await page.goto('/pages/privacy');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
    await expect(page.getByText('General Data Protection Regulation')).toBeVisible();
    const footer = page.getByTestId('footer');
    await expect(footer.getByRole('link')).toHaveCount(9);
    await expect(footer.getByRole('link', { name: 'Your Privacy Choices' })).toHaveCount(0);
    await expect(footer.getByRole('link', { name: 'Notice at Collection' })).toHaveCount(0);
    await footer.scrollIntoViewIfNeeded();
    await shot('footer-nl');
  });
});
