/** The single language table: code, name in its own language, formats. en is the source language. */
export const LANGUAGES = [
  { code: 'en', name: 'English', iso: 'en-GB' },
  { code: 'nl', name: 'Nederlands', iso: 'nl-NL' },
  { code: 'de', name: 'Deutsch', iso: 'de-DE' },
  { code: 'it', name: 'Italiano', iso: 'it-IT' },
  { code: 'fr', name: 'Français', iso: 'fr-FR' },
  { code: 'es', name: 'Español', iso: 'es-ES' },
  { code: 'pl', name: 'Polski', iso: 'pl-PL' },
  { code: 'da', name: 'Dansk', iso: 'da-DK' },
  { code: 'fi', name: 'Suomi', iso: 'fi-FI' },
  { code: 'nb', name: 'Norsk bokmål', iso: 'nb-NO' },
  { code: 'sv', name: 'Svenska', iso: 'sv-SE' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as Language[];
export const DEFAULT_LANGUAGE: Language = 'en';
export const FALLBACK_LANGUAGE: Language = 'nl';
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGE_CODES as string[]).includes(value);
}

/** Dates and numbers follow the language's region; without a known language, Dutch (the spec's default date locale). */
export const DEFAULT_DATE_LOCALE = 'nl-NL';

export function languageIso(code: string | null | undefined): string {
  return LANGUAGES.find((l) => l.code === code)?.iso ?? DEFAULT_DATE_LOCALE;
}

/** Locale choices by country (spec section 9). */
export const COUNTRY_LANGUAGES: Record<string, Language[]> = {
  US: ['en', 'es'], NL: ['nl'], BE: ['nl', 'fr', 'de'], FR: ['fr'], IT: ['it'], ES: ['es'],
  DE: ['de'], AT: ['de'], IE: ['en'], GB: ['en'], AU: ['en'], NZ: ['en'], CA: ['en', 'fr'],
  PL: ['pl'], CH: ['de', 'it', 'fr', 'en'], DK: ['da'], FI: ['fi', 'sv'], NO: ['nb'], SE: ['sv'],
};

/**
 * The languages the menu offers a visitor from `country` (spec section 9), with the current one first
 * when the country's list lacks it. A country without a list (or an unknown one) gets every language.
 */
export function languageChoices(country: string | null | undefined, current: Language): Language[] {
  const choices = COUNTRY_LANGUAGES[(country ?? '').toUpperCase()];
  if (!choices) return [...LANGUAGE_CODES];
  return choices.includes(current) ? choices : [current, ...choices];
}
