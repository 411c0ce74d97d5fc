import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { translationsUrl } from '#common/translations.ts';
import { createTranslator, loadLocales } from './i18n.ts';
import { translationsRoutes } from './translations.routes.ts';

// The routes alone (server/app.ts mounts them before the request context); tests/e2e/languages.spec.ts checks the
// whole server's answer, security headers included.
describe('translation files (GET /i18n/<lang>.<version>.json)', () => {
  let app: ReturnType<typeof translationsRoutes>;
  let version: string;
  const locales = loadLocales();
  beforeAll(async () => {
    const translator = await createTranslator(locales);
    app = translationsRoutes(translator);
    version = translator.version;
  });
  const get = (path: string, headers: Record<string, string> = {}) => app.request(`http://localhost${path}`, { headers });

  it('names the tables\' content in its version', () => {
    expect(version).toMatch(/^[0-9a-f]{12}$/);
    const changed = structuredClone(locales);
    (changed.de as { nav: Record<string, string> }).nav.home = 'Startseite!';
    return createTranslator(changed).then((other) => expect(other.version).not.toBe(version));
  });

  it('serves a language\'s whole table, cached for good, compressed as the browser accepts', async () => {
    const plain = await get(translationsUrl('de', version));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('etag')).toBe(`"${version}-de"`);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(locales.de);

    const br = await get(translationsUrl('en', version), { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    const packed = Buffer.from(await br.arrayBuffer());
    expect(JSON.parse(brotliDecompressSync(packed).toString())).toEqual(locales.en);
    expect(packed.length).toBeLessThan(JSON.stringify(locales.en).length / 3);

    const gz = await get(translationsUrl('fi', version), { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(locales.fi);
  });

  it('answers a revalidation with 304', async () => {
    const res = await get(translationsUrl('nl', version), { 'if-none-match': `W/"other", "${version}-nl"` });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  it('serves the current table uncached for an older version (a page from before a release)', async () => {
    const res = await get(translationsUrl('sv', '0123456789ab'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual(locales.sv);
  });

  it.each(['/i18n/xx.0123456789ab.json', `/i18n/EN.${'0'.repeat(12)}.json`, '/i18n/en.json', '/i18n/en.zz.json', '/i18n/..%2Flocales%2Fen.json'])(
    '%s: 404 with the JSON error, never 500',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect((await res.json()) as unknown).toMatchObject({ error: { code: 'not_found', message: expect.any(String) } });
    },
  );
});
