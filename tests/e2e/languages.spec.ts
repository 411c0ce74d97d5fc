import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';

const LANGUAGES = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'nb', 'sv'] as const;
const ISO: Record<string, string> = { en: 'en-GB', nl: 'nl-NL', de: 'de-DE', it: 'it-IT', fr: 'fr-FR', es: 'es-ES', pl: 'pl-PL', da: 'da-DK', fi: 'fi-FI', nb: 'nb-NO', sv: 'sv-SE' };

test.describe('every language renders on the server', () => {
  test.skip(({ isMobile }) => isMobile, 'one viewport is enough for the language check');
  for (const lang of LANGUAGES) {
    test(lang, async ({ page, baseURL }) => {
      const strings = JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8'));
      await page.context().addCookies([{ name: 'locale', value: lang, url: baseURL! }]);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', ISO[lang]);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(strings.index.title);
      await expect(page.getByTestId('entry-warning')).toContainText(strings.entry_warning.title);
      // No i18n key may leak into the page.
      const text = await page.locator('body').innerText();
      expect(text).not.toMatch(/\b(nav|footer|index|errors|entry_warning)\.[a-z_]+\b/);
    });
  }
});
