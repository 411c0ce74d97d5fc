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

export function languageIso(code: Language): string {
  return LANGUAGES.find((l) => l.code === code)?.iso ?? 'en-GB';
}

/** Locale choices by country (spec section 9). */
export const COUNTRY_LANGUAGES: Record<string, Language[]> = {
  US: ['en', 'es'], NL: ['nl'], BE: ['nl', 'fr', 'de'], FR: ['fr'], IT: ['it'], ES: ['es'],
  DE: ['de'], AT: ['de'], IE: ['en'], GB: ['en'], AU: ['en'], NZ: ['en'], CA: ['en', 'fr'],
  PL: ['pl'], CH: ['de', 'it', 'fr', 'en'], DK: ['da'], FI: ['fi', 'sv'], NO: ['nb'], SE: ['sv'],
};
