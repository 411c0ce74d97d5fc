import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { Hono } from 'hono';
import { isLanguage, type Language } from '#common/languages.ts';
import { TRANSLATIONS_FILE } from '#common/translations.ts';
import { chooseEncoding } from '../http/compress.ts';
import type { AppEnv } from '../http/context.ts';
import type { Translator } from './i18n.ts';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

interface File { json: Buffer; br: Buffer; gzip: Buffer }

/**
 * GET /i18n/<lang>.<version>.json: a language's whole translation table, which the browser loads before the page
 * hydrates (app/entry.client.tsx) instead of receiving it in every page's loader data (docs/decisions/024). The
 * version names the tables' content, so the answer may be cached for a year; the server renders pages from the
 * tables in memory. Compressed once per language (brotli at its best, gzip), not per request.
 */
export function translationsRoutes(translator: Translator) {
  const files = new Map<Language, Promise<File>>();
  const fileOf = (lang: Language) => {
    let file = files.get(lang);
    if (!file) {
      const json = Buffer.from(JSON.stringify(translator.resources[lang]));
      file = Promise.all([
        brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } }),
        gzip(json, { level: 9 }),
      ]).then(([br, gz]) => ({ json, br, gzip: gz }));
      files.set(lang, file);
    }
    return file;
  };

  return new Hono<AppEnv>().get('/i18n/:file', async (c) => {
    const match = TRANSLATIONS_FILE.exec(c.req.param('file'));
    const lang = match?.[1];
    if (!match || !isLanguage(lang)) {
      return c.json({ error: { code: 'not_found', message: translator.t('en', 'errors.not_found') } }, 404, { 'Cache-Control': 'no-store' });
    }
    // An older version (a page from before a release): the current table, but not to be kept.
    const current = match[2] === translator.version;
    const etag = `"${translator.version}-${lang}"`;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: etag,
      Vary: 'Accept-Encoding',
    };
    if (c.req.header('if-none-match')?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
    const file = await fileOf(lang);
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (encoding) headers['Content-Encoding'] = encoding;
    const body = encoding === 'br' ? file.br : encoding === 'gzip' ? file.gzip : file.json;
    headers['Content-Length'] = String(body.length);
    return c.body(new Uint8Array(body), 200, headers);
  });
}
