import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '#common/languages.ts';
import { loadLocales } from './i18n.ts';

type Tree = { [k: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** Plural keys collapse to their base; every language must have the plural forms its grammar needs. */
function expectedKeys(en: Map<string, string>, lang: string): string[] {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of en.keys()) {
    if (PLURAL.test(key)) for (const c of categories) keys.add(key.replace(PLURAL, `_${c}`));
    else keys.add(key);
  }
  return [...keys];
}

describe('locale files', () => {
  const locales = loadLocales();
  const en = flatten(locales.en as Tree);

  it.each(LANGUAGE_CODES)('%s has every key of en, with its placeholders and plural forms', (lang) => {
    const strings = flatten(locales[lang] as Tree);
    const missing = expectedKeys(en, lang).filter((k) => !strings.has(k));
    expect(missing).toEqual([]);
    for (const [key, value] of en) {
      const placeholders = value.match(/\{\{\w+\}\}/g) ?? [];
      const translated = strings.get(PLURAL.test(key) ? key.replace(PLURAL, '_other') : key) ?? '';
      for (const p of placeholders) expect(translated, `${lang}:${key}`).toContain(p);
      expect(translated.trim(), `${lang}:${key}`).not.toBe('');
    }
  });

  it('has no keys the source does not know', () => {
    for (const lang of LANGUAGE_CODES) {
      const base = new Set([...en.keys()].map((k) => k.replace(PLURAL, '')));
      const extra = [...flatten(locales[lang] as Tree).keys()].filter((k) => !base.has(k.replace(PLURAL, '')));
      expect(extra, lang).toEqual([]);
    }
  });
});
