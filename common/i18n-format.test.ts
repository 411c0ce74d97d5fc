import { describe, expect, it, vi } from 'vitest';
import { createTranslator } from '#server/i18n/i18n.ts';
import { formatCount } from './i18n-format.ts';
import { LANGUAGES, languageIso } from './languages.ts';

describe('counts in translated texts', () => {
  it('are grouped the reader’s way; other numbers are left as they are', async () => {
    const translator = await createTranslator();
    expect(translator.t('en', 'search.num_results', { count: 1234 })).toBe('1,234 members found');
    expect(translator.t('nl', 'search.num_results', { count: 1234 })).toBe('1.234 leden gevonden');
    expect(translator.t('de', 'search.num_results', { count: 1000 })).toBe('1.000 Mitglieder gefunden');
    expect(translator.t('fr', 'search.num_results', { count: 1000 })).toMatch(/^1\u202f000 membres/);
    // The plural form still follows the number, not its text.
    expect(translator.t('nl', 'search.num_results', { count: 1 })).toBe('1 lid gevonden');
    // A number that is not a count (a register number) is not grouped.
    expect(translator.t('nl', 'mail.common.kvk', { kvk: 12345678 })).toContain('12345678');
  });
});

describe('formatCount', () => {
  it('writes a whole number below 1,000 as the number formatter of every language does, without making one', () => {
    const made = vi.spyOn(Intl, 'NumberFormat');
    const samples = Array.from({ length: 1000 }, (_, n) => n);
    const fast = LANGUAGES.flatMap(({ code }) => samples.map((n) => formatCount(n, code)));
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    expect(fast).toEqual(LANGUAGES.flatMap(({ code }) => samples.map((n) => new Intl.NumberFormat(languageIso(code)).format(n))));
  });

  it('leaves larger, negative and fractional numbers to the formatter', () => {
    expect(formatCount(1000, 'en')).toBe('1,000');
    expect(formatCount(1000, 'nl')).toBe('1.000');
    expect(formatCount(-5, 'sv')).toBe(new Intl.NumberFormat('sv').format(-5));
    expect(formatCount(2.5, 'de')).toBe('2,5');
  });
});
