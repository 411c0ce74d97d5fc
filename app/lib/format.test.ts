import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { COUNTRIES } from '#common/constants.ts';
import { LANGUAGES, type Language } from '#common/languages.ts';
import { byCountryName, countryName } from './format.ts';
import { provideTranslations, type TranslationTable } from './translations.ts';

const tables = Object.fromEntries(LANGUAGES.map(({ code }) => [code, JSON.parse(readFileSync(join(import.meta.dirname, '../../locales', `${code}.json`), 'utf8'))])) as Record<Language, TranslationTable>;

beforeAll(() => provideTranslations(tables));

describe('country names', () => {
  it('come from the translation tables for every country of the site, without the browser\'s region names', () => {
    const made = vi.spyOn(Intl, 'DisplayNames');
    for (const { code } of LANGUAGES) {
      for (const country of COUNTRIES) expect(countryName(country, code)).toBe((tables[code].countries as Record<string, string>)[country]);
    }
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    expect(countryName('DE', 'de')).toBe('Deutschland');
    expect(countryName('NL', 'fi')).toBe('Alankomaat');
  });

  it('fall back to the browser\'s region names for other countries, and to the code', () => {
    expect(countryName('JP', 'en')).toBe('Japan');
    expect(countryName('JP', 'de')).toBe('Japan');
    expect(countryName('XX', 'en')).toBe('XX');
  });

  it('order a list of countries the way the language sorts', () => {
    expect(byCountryName(['PL', 'AT', 'NO', 'NL'], 'de')).toEqual(['NL', 'NO', 'AT', 'PL']); // Niederlande, Norwegen, Österreich, Polen
    expect(byCountryName(['PL', 'AT', 'NO', 'NL'], 'sv')).toEqual(['NL', 'NO', 'PL', 'AT']); // …, Polen, Österrike: Ö comes last in Swedish
    expect(byCountryName(COUNTRIES, 'en')).toHaveLength(COUNTRIES.length);
  });
});
