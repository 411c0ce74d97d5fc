import { z } from 'zod';
import { COUNTRY_CURRENCY } from './constants.ts';
import { languageIso } from './languages.ts';
import { flag, whole } from './site-settings.ts';

/**
 * A credit package as the operator console edits it (issue 27): one schema checked by the form before sending and by
 * the console's use case before anything is stored. Every message is an i18n key, shown beside its field.
 */

/** The currencies members pay in (one per known country). */
export const CURRENCIES = [...new Set(Object.values(COUNTRY_CURRENCY))].sort();

/** A price per currency in integer cents; '' (or absent) is no price in that currency. */
const prices = z.record(z.string(), z.unknown(), { error: 'errors.invalid_input' }).transform((record, ctx) => {
  const out: Record<string, number> = {};
  for (const [currency, raw] of Object.entries(record)) {
    if (!CURRENCIES.includes(currency)) {
      ctx.addIssue({ code: 'custom', message: 'errors.invalid_choice' });
      return z.NEVER;
    }
    if (raw === '' || raw === undefined || raw === null) continue;
    const cents = whole(1, 10_000_000).safeParse(raw);
    if (!cents.success) {
      ctx.addIssue({ code: 'custom', message: 'errors.number_out_of_range' });
      return z.NEVER;
    }
    out[currency] = cents.data;
  }
  if (!Object.keys(out).length) {
    ctx.addIssue({ code: 'custom', message: 'errors.field_required' });
    return z.NEVER;
  }
  return out;
});

export const packageFormSchema = z.object({
  credits: whole(1, 100_000),
  /** The premium flag: the package the credits page marks as the popular (premium) choice. */
  popular: flag,
  sort: whole(-1000, 1000),
  active: flag,
  prices,
});

export type PackageForm = z.output<typeof packageFormSchema>;

/**
 * Money as a person types it, in integer cents: "29,99", "29.99", "1.299,50", "1 299.50" or "30". The last "." or ","
 * followed by one or two digits is the decimal separator (whichever the language uses); other dots, commas and spaces
 * group thousands. Anything else stays as typed, for the schema to refuse beside its field.
 */
export function moneyCents(typed: unknown): unknown {
  if (typeof typed !== 'string') return typed;
  const text = typed.trim().replace(/[\s\u00a0\u202f'’]/g, '');
  const match = /^(\d{1,3}(?:[.,]\d{3})+|\d+)(?:[.,](\d{1,2}))?$/.exec(text);
  if (!match) return typed;
  const whole = Number(match[1]!.replace(/[.,]/g, ''));
  const cents = Number((match[2] ?? '0').padEnd(2, '0'));
  return String(whole * 100 + cents);
}

/** Cents as the console's money field shows them in a language ("29,99" in Dutch): no grouping, two decimals. */
export function moneyText(cents: number, lang: string): string {
  return new Intl.NumberFormat(languageIso(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);
}

/**
 * The console's package form: the same schema, with prices typed as money in the staff member's language (turned
 * into cents before the check), so the rules and messages are packageFormSchema's.
 */
export const packageMoneyFormSchema = packageFormSchema.extend({
  prices: z.preprocess(
    (record) => (record && typeof record === 'object' ? Object.fromEntries(Object.entries(record).map(([c, v]) => [c, moneyCents(v)])) : record),
    prices,
  ),
});

/** "About N messages" for a package on a site whose message costs `messageCredits` (null when messages are free). */
export function aboutMessages(credits: number, messageCredits: number): number | null {
  return messageCredits > 0 ? Math.floor(credits / messageCredits) : null;
}
