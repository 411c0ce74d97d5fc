import { describe, expect, it } from 'vitest';
import { createTranslator } from '#server/i18n/i18n.ts';

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
