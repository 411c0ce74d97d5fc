import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES, languageChoices, languageIso } from './languages.ts';

describe('language choices by country (spec section 9)', () => {
  it('offers the languages of the country, keeping the current one', () => {
    expect(languageChoices('BE', 'nl')).toEqual(['nl', 'fr', 'de']);
    expect(languageChoices('be', 'en')).toEqual(['en', 'nl', 'fr', 'de']);
    expect(languageChoices('US', 'es')).toEqual(['en', 'es']);
    expect(languageChoices('FI', 'de')).toEqual(['de', 'fi', 'sv']);
    expect(languageChoices('NO', 'nb')).toEqual(['nb']);
  });

  it('offers every language to a country without a list or an unknown one', () => {
    expect(languageChoices('JP', 'en')).toEqual(LANGUAGE_CODES);
    expect(languageChoices(null, 'pl')).toEqual(LANGUAGE_CODES);
  });

  it('writes dates in Dutch when the language is unknown', () => {
    expect(languageIso('sv')).toBe('sv-SE');
    expect(languageIso(undefined)).toBe('nl-NL');
    expect(languageIso('xx')).toBe('nl-NL');
  });
});
