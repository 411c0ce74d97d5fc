import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The product's own font (docs/decisions/086): a variable font served from the site's origin (its /assets/), the
 * Latin file preloaded, Latin Extended fetched only for text that needs it (Polish), and swapped in over a fallback.
 */

/** The font files the page fetched so far. */
const fontFiles = (page: Page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.woff2')));

test('the text is set in the self-hosted variable font, preloaded from the site\'s own origin', { tag: '@phone' }, async ({ page, baseURL }) => {
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  await page.goto('/pages/terms');
  await page.evaluate(() => document.fonts.ready);
  const preload = page.locator('head link[rel=preload][as=font]');
  await expect(preload).toHaveCount(1);
  await expect(preload).toHaveAttribute('type', 'font/woff2');
  await expect(preload).toHaveAttribute('crossorigin', /^(anonymous)?$/);
  const preloaded = new URL((await preload.getAttribute('href'))!, page.url());
  expect(preloaded.origin).toBe(new URL(baseURL!).origin);
  expect(preloaded.pathname).toMatch(/^\/assets\/figtree-latin-wght-normal-[\w-]+\.woff2$/);

  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Figtree Variable", "Figtree Fallback"/);
  expect(await page.evaluate(() => document.fonts.check('700 16px "Figtree Variable"'))).toBe(true);
  const english = await fontFiles(page);
  // One file, the preloaded one: English needs no Latin Extended.
  expect(english.map((url) => new URL(url).pathname)).toEqual([preloaded.pathname]);

  // Polish text brings in the Latin Extended face as well.
  const loadedFaces = () => page.evaluate(() => [...document.fonts].filter((f) => f.family.includes('Figtree Variable') && f.status === 'loaded').map((f) => f.unicodeRange));
  expect((await loadedFaces()).some((range) => /U\+0*100-0*2BA/i.test(range))).toBe(false);
  await page.context().addCookies([{ name: 'locale', value: 'pl', url: baseURL! }]);
  await page.goto('/pages/terms');
  await page.evaluate(() => document.fonts.ready);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl-PL');
  expect(await page.evaluate(() => /[ąćęłńśźż]/i.test(document.body.innerText))).toBe(true);
  await expect.poll(async () => (await loadedFaces()).some((range) => /U\+0*100-0*2BA/i.test(range))).toBe(true);
});
