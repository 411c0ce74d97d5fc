import { languageIso, type Language } from '#common/languages.ts';
import { textAt } from './i18n.ts';
import { translationTable } from './translations.ts';

/**
 * Intl formatters are costly to make (a country name each made one: a page of profile cards and the country list
 * of the search form made hundreds while hydrating) and cheap to reuse: one per language and kind.
 */
type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.DisplayNames | Intl.Collator;
const made = new Map<string, Formatter>();

function reused<T extends Formatter>(key: string, make: () => T): T {
  let formatter = made.get(key) as T | undefined;
  if (!formatter) made.set(key, (formatter = make()));
  return formatter;
}

// One money formatter for pages and server-made texts (a console action's answer).
export { formatCount, formatMoney } from '#common/i18n-format.ts';

/** A message's time in a time zone (the member's, useTimeZone): the time alone today, with its date before. */
export function formatTime(iso: string, lang: Language, timeZone: string): string {
  const d = new Date(iso);
  const day = reused(`day:${timeZone}`, () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }));
  const sameDay = day.format(new Date()) === day.format(d);
  return reused(`time:${lang}:${timeZone}:${sameDay}`, () => new Intl.DateTimeFormat(languageIso(lang), sameDay
    ? { hour: '2-digit', minute: '2-digit', timeZone }
    : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone })).format(d);
}

/**
 * A country's name in the page's language. The site's countries are named in the translation tables (`countries`),
 * so the server and the browser write the same name and a page does not make the browser's Intl.DisplayNames (its
 * region names load when the first one is made: some 15 ms on a phone, within the page's hydration). Other codes
 * (a visitor's country by address) fall back to it.
 */
export function countryName(code: string, lang: Language): string {
  const table = translationTable(lang);
  const named = table && textAt(table, `countries.${code}`);
  if (named) return named;
  try {
    return reused(`region:${lang}`, () => new Intl.DisplayNames([languageIso(lang)], { type: 'region' })).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A date with its time, e.g. in lists of orders and ledger rows, in a time zone: a member's pages pass theirs
 * (useTimeZone, docs/decisions/079), the console's are in UTC.
 */
export function formatDateTime(iso: string, lang: Language, timeZone = 'UTC'): string {
  return reused(`datetime:${lang}:${timeZone}`, () => new Intl.DateTimeFormat(languageIso(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone })).format(new Date(iso));
}

/** Countries with their names in a language, in the order of those names (for a list to choose from). */
export function countryOptions(codes: readonly string[], lang: Language): { code: string; name: string }[] {
  const collator = reused(`collator:${lang}`, () => new Intl.Collator(languageIso(lang)));
  return codes.map((code) => ({ code, name: countryName(code, lang) })).sort((a, b) => collator.compare(a.name, b.name));
}

/** Country codes in the order of their names in a language. */
export function byCountryName(codes: readonly string[], lang: Language): string[] {
  return countryOptions(codes, lang).map(({ code }) => code);
}

/** A change of credits with its sign: +50, −5. */
export function formatDelta(delta: number, lang: Language): string {
  return reused(`delta:${lang}`, () => new Intl.NumberFormat(languageIso(lang), { signDisplay: 'exceptZero' })).format(delta);
}
