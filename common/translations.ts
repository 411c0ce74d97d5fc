/**
 * The URL of a language's translation table (docs/decisions/024): served by the server as JSON, named by a
 * version (a hash of every locale file) so that browsers may cache it for good and a new release gets new URLs.
 */
export function translationsUrl(lang: string, version: string): string {
  return `/i18n/${lang}.${version}.json`;
}

/** `<lang>.<version>.json`, the file name part of translationsUrl. */
export const TRANSLATIONS_FILE = /^([a-z]{2})\.([0-9a-f]{1,32})\.json$/;
