import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { asNewVisitor } from './account-helpers.ts';

const LANGUAGES = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'nb', 'sv'] as const;
const ISO: Record<string, string> = { en: 'en-GB', nl: 'nl-NL', de: 'de-DE', it: 'it-IT', fr: 'fr-FR', es: 'es-ES', pl: 'pl-PL', da: 'da-DK', fi: 'fi-FI', nb: 'nb-NO', sv: 'sv-SE' };

test.describe('every language renders on the server', () => {
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

/** The locale's strings long enough not to turn up in a page by chance. */
function longStrings(lang: string): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') {
      if (node.length >= 30 && !/["<>&'\\]/.test(node)) out.push(node);
    } else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8')));
  return out;
}

test.describe('the translation table is a cached file, not page data', () => {

  test('pages and their data carry no table; the file is cached for good, unknown languages are 404', async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'locale', value: 'fr', url: baseURL! }]);
    // Every page holds the table's preload (media="not all") until its scripts start (app/lib/hold-scripts.server.ts).
    const html = await (await page.request.get('/login')).text();
    const strings = longStrings('fr');
    expect(strings.length).toBeGreaterThan(300);
    // The page renders a few of them; the whole table (as before, in the hydration data) would hold every one.
    const inPage = (text: string) => strings.filter((s) => text.includes(s)).length;
    expect(inPage(html), 'long French strings in the HTML of /login').toBeLessThan(strings.length / 10);
    // Single-fetch data of a client navigation to / (root and index loaders).
    const data = await page.request.get('/_.data');
    expect(data.status()).toBe(200);
    expect(inPage(await data.text()), 'long French strings in /_.data').toBeLessThan(5);

    const href = html.match(/<link rel="preload" as="fetch" media="not all" crossorigin="anonymous" href="(\/i18n\/fr\.[0-9a-f]{12}\.json)"/)?.[1];
    expect(href, 'the preload of the French table').toBeTruthy();
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/json; charset=utf-8');
    expect(file.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers()['etag']).toMatch(/^"[0-9a-f]{12}-fr"$/);
    expect(file.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(await file.json()).toEqual(JSON.parse(readFileSync('locales/fr.json', 'utf8')));

    for (const path of [href!.replace('/fr.', '/xx.'), '/i18n/fr.json', '/i18n/fr.nothex.json']) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(404);
      expect((await res.json()).error.code, path).toBe('not_found');
    }
  });

  test('the browser loads its language\'s file once, before the page hydrates, without untranslated keys', async ({ page, baseURL }) => {
    const loaded: string[] = [];
    page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/i18n/')) loaded.push(new URL(r.url()).pathname); });
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.context().addCookies([{ name: 'locale', value: 'pl', url: baseURL! }]);
    await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
    // A page that runs at load (the home page and the landers hold their scripts until the visitor interacts).
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const strings = JSON.parse(readFileSync('locales/pl.json', 'utf8'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(strings.login.title);
    // One request: the fetch took what the preload fetched.
    expect(loaded).toEqual([expect.stringMatching(/^\/i18n\/pl\.[0-9a-f]{12}\.json$/)]);
    // A client navigation renders in the same language (its title from the same table).
    await page.getByTestId('footer').getByRole('link').first().click();
    await expect(page).not.toHaveURL(/\/login$/);
    expect(await page.locator('body').innerText()).not.toMatch(/\b(nav|footer|index|errors|entry_warning)\.[a-z_]+\b/);
    expect(errors.filter((e) => /hydrat|translations/i.test(e))).toEqual([]);
  });
});

test('in German, counts are grouped and long country names stay whole on the cards', async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: 'locale', value: 'de', url: baseURL! }]);
  await asNewVisitor(page);
  // The largest bundle: "1.000", as a German reader writes a thousand.
  await page.goto('/pricing');
  await expect(page.getByTestId('package-credits').last()).toHaveText('1.000');
  // Members in the United Kingdom: "Vereinigtes Königreich" is wider than a card on a phone.
  await page.goto('/members?country=GB');
  const countries = page.getByTestId('profile-card').getByTestId('profile-card-country');
  await expect(countries.first()).toHaveText('Vereinigtes Königreich');
  const cut = await countries.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
  expect(cut).toEqual([]);
});
