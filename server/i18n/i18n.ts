import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next, { type i18n, type TFunction } from 'i18next';
import { countFormatter } from '#common/i18n-format.ts';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGE_CODES, type Language } from '#common/languages.ts';
import { LOCALES_DIR } from '../paths.ts';

export type Resources = Record<string, unknown>;

/** All locale files, read once at start. */
export function loadLocales(): Record<Language, Resources> {
  const out = {} as Record<Language, Resources>;
  for (const code of LANGUAGE_CODES) {
    out[code] = JSON.parse(readFileSync(join(LOCALES_DIR, `${code}.json`), 'utf8')) as Resources;
  }
  return out;
}

export interface Translator {
  resources: Record<Language, Resources>;
  /** A hash of every language's table: the translation files' URLs name it (common/translations.ts). */
  version: string;
  t(lang: Language, key: string, params?: Record<string, unknown>): string;
  fixed(lang: Language): TFunction;
}

export async function createTranslator(resources = loadLocales()): Promise<Translator> {
  const instance: i18n = i18next.createInstance();
  await instance.use(countFormatter).init({
    resources: Object.fromEntries(Object.entries(resources).map(([code, r]) => [code, { translation: r }])),
    lng: DEFAULT_LANGUAGE,
    fallbackLng: [FALLBACK_LANGUAGE, DEFAULT_LANGUAGE],
    interpolation: { escapeValue: false, alwaysFormat: true },
    initAsync: false,
  });
  return {
    resources,
    version: createHash('sha256').update(JSON.stringify(resources)).digest('hex').slice(0, 12),
    t: (lang, key, params) => instance.getFixedT(lang)(key, params ?? {}) as string,
    fixed: (lang) => instance.getFixedT(lang),
  };
}
