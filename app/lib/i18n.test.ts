import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { countFormatter } from '#common/i18n-format.ts';
import { LANGUAGE_CODES } from '#common/languages.ts';
import { loadLocales } from '#server/i18n/i18n.ts';
import { createI18n } from './i18n.ts';

const locales = loadLocales();
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every key of a table as the pages ask for it: nested keys joined with dots, plural forms by their base. */
function keysOf(table: Record<string, unknown>, prefix = ''): Set<string> {
  const keys = new Set<string>();
  for (const [name, value] of Object.entries(table)) {
    const key = `${prefix}${name}`;
    if (typeof value === 'string') keys.add(key.replace(PLURAL, ''));
    else if (value && typeof value === 'object') for (const k of keysOf(value as Record<string, unknown>, `${key}.`)) keys.add(k);
  }
  return keys;
}

/** The reference: i18next set up as the server's translator reads the same files. */
function reference(lang: string, table: Record<string, unknown>) {
  const instance = i18next.createInstance();
  void instance.use(countFormatter).init({
    lng: lang, resources: { [lang]: { translation: table } }, fallbackLng: false,
    interpolation: { escapeValue: false, alwaysFormat: true }, initAsync: false,
  });
  return instance.getFixedT(lang);
}

describe('page translations', () => {
  it.each(LANGUAGE_CODES)('give what the server translator gives for every key in %s, with and without counts', (lang) => {
    const table = locales[lang];
    const ours = createI18n(lang, table).t;
    const theirs = reference(lang, table);
    const keys = [...keysOf(table)];
    expect(keys.length).toBeGreaterThan(1000);
    let compared = 0;
    for (const key of keys) {
      const text = JSON.stringify(key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table) ?? '');
      const names = new Set([...text.matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1].split(',')[0].trim()));
      const params = Object.fromEntries([...names].map((name) => [name, `<${name}>`]));
      expect(ours(key)).toBe(theirs(key));
      for (const count of [0, 1, 2, 3, 5, 12, 22, 101, 1000, 2_500_000]) {
        expect(ours(key, { ...params, count }), `${lang} ${key} ${count}`).toBe(theirs(key, { ...params, count }));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('groups counts the reader\'s way and picks the language\'s plural form', () => {
    const nl = createI18n('nl', { members_one: '{{count}} lid', members_other: '{{count}} leden' });
    expect(nl.t('members', { count: 1 })).toBe('1 lid');
    expect(nl.t('members', { count: 1000 })).toBe('1.000 leden');
    const pl = createI18n('pl', { photos_one: '{{count}} zdjęcie', photos_few: '{{count}} zdjęcia', photos_many: '{{count}} zdjęć', photos_other: '{{count}} zdjęcia' });
    expect([1, 3, 5, 22, 25].map((count) => pl.t('photos', { count }))).toEqual(['1 zdjęcie', '3 zdjęcia', '5 zdjęć', '22 zdjęcia', '25 zdjęć']);
  });

  it('handles missing keys, default values and placeholders the way the server does', () => {
    const table = { greeting: 'Hi {{name}}, {{ other }}', year: 'Since {{year}}', nested: { deep: 'Deep' } };
    const ours = createI18n('en', table).t;
    const theirs = reference('en', table);
    const cases: [string, Record<string, unknown>?][] = [
      ['missing.key'], ['missing.key', { defaultValue: 'Fallback {{name}}', name: 'Ann' }], ['nested.deep'],
      ['greeting'], ['greeting', { name: 'Ann' }], ['greeting', { name: undefined, other: null }],
      ['greeting', { name: '{{other}}', other: 'x' }], ['greeting', { name: 5, other: true }], ['year', { year: 2026 }],
    ];
    for (const [key, options] of cases) expect(ours(key, options), `${key} ${JSON.stringify(options)}`).toBe(theirs(key, options));
    expect(ours('year', { year: 2026 })).toBe('Since 2026');
    // A group of keys is not a text: its key shows, as for any missing text.
    expect(ours('nested')).toBe('nested');
  });
});
