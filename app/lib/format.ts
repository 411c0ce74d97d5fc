import { COUNTRY_TIME_ZONE } from '#common/constants.ts';
import { languageIso, type Language } from '#common/languages.ts';

export function formatMoney(cents: number, currency: string, lang: Language): string {
  return new Intl.NumberFormat(languageIso(lang), { style: 'currency', currency }).format(cents / 100);
}

export function formatTime(iso: string, lang: Language): string {
  const d = new Date(iso);
  const sameDay = new Date().toDateString() === d.toDateString();
  return new Intl.DateTimeFormat(languageIso(lang), sameDay ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(d);
}

export function countryName(code: string, lang: Language): string {
  try {
    return new Intl.DisplayNames([languageIso(lang)], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A date with its time, e.g. in lists of orders and ledger rows, in the member's time zone (their
 * country's): the server and the browser render the same text.
 */
export function formatDateTime(iso: string, lang: Language, country?: string | null): string {
  const timeZone = (country && COUNTRY_TIME_ZONE[country]) || 'UTC';
  return new Intl.DateTimeFormat(languageIso(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

/** A change of credits with its sign: +50, −5. */
export function formatDelta(delta: number, lang: Language): string {
  return new Intl.NumberFormat(languageIso(lang), { signDisplay: 'exceptZero' }).format(delta);
}
