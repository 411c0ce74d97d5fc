import type { FormatterModule } from 'i18next';
import { languageIso } from './languages.ts';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * A count as the reader writes it: "1.000" in Dutch, "1,000" in English. Below 1,000 a whole number is written the
 * same way in every language of the site, without the number formatter: the browser's first Intl.NumberFormat loads
 * its locale data (20–40 ms on a phone), which would otherwise fall into the page's hydration.
 */
export function formatCount(value: number, lang: string): string {
  if (Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
  const iso = languageIso(lang);
  let numbers = formats.get(iso);
  if (!numbers) formats.set(iso, (numbers = new Intl.NumberFormat(iso)));
  return numbers.format(value);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Cents of `currency` as the reader writes money: "€ 12,50" in Dutch, "€12.50" in English. */
export function formatMoney(cents: number, currency: string, lang: string): string {
  const key = `${languageIso(lang)}:${currency}`;
  let money = moneyFormats.get(key);
  if (!money) moneyFormats.set(key, (money = new Intl.NumberFormat(languageIso(lang), { style: 'currency', currency })));
  return money.format(cents / 100);
}

/**
 * A moment in a translated text (`{{until, datetime}}`, an ISO string): date and time in UTC, said so, in the reader's
 * language. Server-made texts (an error message) know the member's language but not their time zone.
 */
export function formatUtcDateTime(iso: string, lang: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(languageIso(lang), {
    year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
  }).format(at);
}

/**
 * Counts in translated texts are written the reader's way ("1.000 leden" in Dutch, "1,000 members" in
 * English). Only `count`: other numbers in texts (a company register number, a code, a year) are
 * identifiers, which grouping would break.
 */
export const countFormatter: FormatterModule = {
  type: 'formatter',
  init() {},
  add() {},
  addCached() {},
  format(value, format, lng, options) {
    if (format === 'datetime' && typeof value === 'string' && lng) return formatUtcDateTime(value, lng);
    if (format || options?.interpolationkey !== 'count' || typeof value !== 'number' || !lng) return value;
    return formatCount(value, lng);
  },
};
