import type { Browser } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, latestMail, signUpByApi } from './account-helpers.ts';
import { asStaff, overflowing } from './console-staff.ts';

/** A visitor's page of its own, in `lang` (the locale cookie), past the adults-only warning. */
async function visitor(browser: Browser, baseURL: string, lang: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'locale', value: lang, url: baseURL }]);
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  return { page, headers, close: () => context.close() };
}

/**
 * A site's texts in the console at 1280 px (decision 074): an admin adds a short path and a visitor opening it lands
 * on the lander with the token's tracking; the admin writes the Dutch FAQ and a member page shows it; the admin words
 * the Danish activation mail and the next sign-up in Danish gets it. Each change is undone at the end, so no other
 * test sees it.
 */
test('an admin adds a short path, edits the Dutch FAQ and a mail text, and visitors see each at once', async ({ page, browser, shot, baseURL }) => {
  const stamp = Date.now().toString(36);
  const token = `e2e-${stamp}`;
  await asStaff(page, { width: 1280, height: 900 });
  await page.goto('/console');
  await page.getByTestId('console-nav-content').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Texts and short paths of Amora');
  await expect(page.getByTestId('console-tokens').locator('tr[data-token="nearby"]')).toContainText('Lander: maplanding');
  await expect(page.getByTestId('console-landers').getByRole('link', { name: 'Preview gallery' })).toHaveAttribute('href', '/landers/gallery');
  await hydrated(page);

  // A word that is a page of the site already is refused beside its field, and nothing is stored.
  await page.getByLabel('Short path', { exact: true }).fill('members');
  await page.getByTestId('token-save').click();
  await expect(page.locator('#token-path-error')).toHaveText('This word is a page of the site already: choose another.');

  await page.getByLabel('Short path', { exact: true }).fill(token);
  await page.getByLabel('Opens', { exact: true }).selectOption('lander:gallery');
  await page.getByLabel('Slug (optional)', { exact: true }).fill('women');
  await page.getByLabel('network', { exact: true }).fill('partner');
  await page.getByLabel('sub1', { exact: true }).fill(stamp);
  await page.getByTestId('token-save').click();
  await expect(page.getByTestId('token-saved')).toHaveText(`/${token} is saved; visitors are sent there within a second.`);
  await expect(page.locator(`tr[data-token="${token}"]`)).toContainText(`network=partner · sub1=${stamp}`);
  await shot('console-content-tokens');
  expect(await overflowing(page)).toEqual([]);

  const guest = await visitor(browser, baseURL!, 'en');
  await guest.page.goto(`/${token}?sub2=flyer`);
  await expect(guest.page).toHaveURL(new RegExp(`/landers/gallery/women\\?sub2=flyer&network=partner&sub1=${stamp}$`));
  await expect(guest.page.getByTestId('lander-signup').first()).toHaveAttribute('href', `/signup?sub2=flyer&network=partner&sub1=${stamp}`);

  // The Dutch FAQ: previewed as members will see it, saved, and shown on the member page.
  await page.getByRole('link', { name: 'Page texts' }).click();
  await page.getByTestId('edit-nl-faq').click();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Frequently Asked Questions (nl)');
  await expect(page.getByTestId('page-version')).toHaveText('The text shipped with the platform; saving it makes it the site\'s own.');
  await hydrated(page);
  const faq = `# Vragen aan {{site_name}}\n\n## Hoe begin ik? (${stamp})\n\nMaak een **gratis** profiel en bekijk [de leden](/members).`;
  await page.getByLabel('Text (markdown)', { exact: true }).fill(faq);
  await page.getByTestId('page-preview-button').click();
  await expect(page.getByTestId('page-preview').getByRole('heading', { level: 1 })).toHaveText('Vragen aan Amora');
  await expect(page.getByTestId('page-preview').locator('strong')).toHaveText('gratis');
  await page.getByTestId('page-save').click();
  await expect(page.getByTestId('page-saved')).toContainText('Saved: the new version of');
  await shot('console-content-page');

  const dutch = await visitor(browser, baseURL!, 'nl');
  await dutch.page.goto('/pages/faq');
  await expect(dutch.page.getByRole('heading', { level: 1 })).toHaveText('Vragen aan Amora');
  await expect(dutch.page.getByRole('heading', { level: 2, name: `Hoe begin ik? (${stamp})` })).toBeVisible();

  // The Danish activation mail in the site's own words: the next sign-up in Danish gets it.
  await page.getByRole('link', { name: 'Mail texts' }).click();
  await page.getByTestId('edit-da-activation').click();
  await hydrated(page);
  await page.getByLabel('Subject', { exact: true }).fill('Velkommen til {{site}}');
  await page.getByTestId('mail-save').click();
  await expect(page.locator('#mail-subject-error')).toHaveCount(0);
  await expect(page.getByTestId('mail-saved')).toHaveText('Saved: the next mail uses this wording.');
  const subject = `Velkommen til {{site}} – bekræft din adresse (${stamp})`;
  await page.getByLabel('Subject', { exact: true }).fill(subject);
  await page.getByTestId('mail-save').click();
  await expect(page.getByTestId('mail-saved')).toHaveText('Saved: the next mail uses this wording.');
  await shot('console-content-mail');

  const dane = await visitor(browser, baseURL!, 'da');
  const { email } = await signUpByApi(dane.page, dane.headers, 'content', 'desktop');
  const mail = await latestMail(dane.page.request, email, 'activation');
  expect(mail.subject).toBe(`Velkommen til Amora – bekræft din adresse (${stamp})`);

  // Undone: the mail's own subject, the FAQ's own text and the short path.
  await page.getByLabel('Subject', { exact: true }).fill('');
  await page.getByTestId('mail-save').click();
  await expect(page.getByTestId('mail-saved')).toBeVisible();
  await page.goto('/console/content/pages/nl/faq');
  await page.getByTestId('page-reset-button').click();
  await expect(page.getByTestId('page-reset')).toBeVisible();
  await page.goto('/console/content');
  await page.getByTestId(`token-delete-${token}`).click();
  await expect(page.locator(`tr[data-token="${token}"]`)).toHaveCount(0);
  expect((await guest.page.request.get(`/${token}`, { maxRedirects: 0 })).status()).toBe(404);
  await Promise.all([guest.close(), dutch.close(), dane.close()]);
});
