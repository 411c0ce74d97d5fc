import { z } from 'zod';
import { COUNTRIES, COUNTRY_CURRENCY } from './constants.ts';
import { MAX_DISCOUNT_BP } from './discounts.ts';
import { LANGUAGE_CODES, languageIso, type Language } from './languages.ts';
import { textSchema } from './input.ts';
import { flag, whole } from './site-settings.ts';

/**
 * A credit package as the operator console edits it (issue 27): one schema checked by the form before sending and by
 * the console's use case before anything is stored. Every message is an i18n key, shown beside its field.
 */

/** The currencies members pay in (one per known country). */
export const CURRENCIES = [...new Set(Object.values(COUNTRY_CURRENCY))].sort();

/**
 * An amount per currency in integer cents; '' (or absent) is none in that currency. `required`: at least one (a
 * package's prices); otherwise none at all is fine (a discount code's minimum order values).
 */
const perCurrency = (required: boolean) => z.record(z.string(), z.unknown(), { error: 'errors.invalid_input' }).transform((record, ctx) => {
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
  if (required && !Object.keys(out).length) {
    ctx.addIssue({ code: 'custom', message: 'errors.field_required' });
    return z.NEVER;
  }
  return out;
});
const prices = perCurrency(true);

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

/** Amounts per currency as typed ("29,99"), in cents before `schema` checks them. */
const typedMoney = <S extends z.ZodType>(schema: S) => z.preprocess(
  (record) => (record && typeof record === 'object' ? Object.fromEntries(Object.entries(record).map(([c, v]) => [c, moneyCents(v)])) : record),
  schema,
);

/**
 * The console's package form: the same schema, with prices typed as money in the staff member's language (turned
 * into cents before the check), so the rules and messages are packageFormSchema's.
 */
export const packageMoneyFormSchema = packageFormSchema.extend({ prices: typedMoney(prices) });

/** "About N messages" for a package on a site whose message costs `messageCredits` (null when messages are free). */
export function aboutMessages(credits: number, messageCredits: number): number | null {
  return messageCredits > 0 ? Math.floor(credits / messageCredits) : null;
}

/** The discount codes the console makes and edits: codes members type, and a site's welcome code (applied by itself). */
export const DISCOUNT_KINDS = ['code', 'welcome'] as const;

/** A day of the validity window (YYYY-MM-DD, UTC); '' is none. */
const day = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z.string({ error: 'errors.invalid_input' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'errors.invalid_input')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'errors.invalid_input')
    .nullable(),
);

/**
 * A discount code as the console edits it (issue 27): one schema for the form and the use case. The percentage is
 * typed as a person writes it ("12,5") and kept in basis points; the minimum order per currency in cents (typed as
 * money; a code with minimums is valid only in the currencies it names); one country or every one; the validity
 * window in whole UTC days, the last day included.
 */
export const discountFormSchema = z.object({
  code: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string({ error: 'errors.discount_code_invalid' })
    .regex(/^[A-Za-z0-9_-]{2,32}$/, 'errors.discount_code_invalid').transform((c) => c.toUpperCase())),
  kind: z.enum(DISCOUNT_KINDS, { error: 'errors.invalid_choice' }),
  /** For every site (null site), not only the one the console is working on. */
  everySite: flag,
  percentBp: z.preprocess(moneyCents, whole(1, MAX_DISCOUNT_BP)),
  minimums: typedMoney(perCurrency(false)),
  country: z.preprocess((v) => (v === '' || v === undefined ? null : v), z.enum(COUNTRIES, { error: 'errors.invalid_choice' }).nullable()),
  oncePerMember: flag,
  startsOn: day,
  endsOn: day,
  active: flag,
}).superRefine((form, ctx) => {
  if (form.startsOn && form.endsOn && form.endsOn < form.startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'errors.date_order' });
});

export type DiscountForm = z.output<typeof discountFormSchema>;

/** The window's days as stored moments: from the first day's start until the end of the last day (UTC). */
export function discountWindow(form: Pick<DiscountForm, 'startsOn' | 'endsOn'>): { startsAt: Date | null; expiresAt: Date | null } {
  return {
    startsAt: form.startsOn ? new Date(`${form.startsOn}T00:00:00Z`) : null,
    expiresAt: form.endsOn ? new Date(Date.parse(`${form.endsOn}T00:00:00Z`) + 86_400_000) : null,
  };
}

/** The stored moments as the window's days (an end at midnight is the day before's end). */
export function discountDays(startsAt: Date | null, expiresAt: Date | null): { startsOn: string | null; endsOn: string | null } {
  return {
    startsOn: startsAt ? startsAt.toISOString().slice(0, 10) : null,
    endsOn: expiresAt ? new Date(expiresAt.getTime() - 1).toISOString().slice(0, 10) : null,
  };
}

/** A gift's name in one language: what the gift picker shows under its image. */
const giftName = textSchema({ min: 1, max: 40, tooShort: 'errors.field_required', tooLong: 'errors.field_too_long' });

/**
 * A gift as the console edits it (issue 27): its name in every language the product speaks, what sending it costs
 * (empty: the site's gift price), its place in the picker and whether it is offered. The image is uploaded beside the
 * form and checked by its content like a member photo.
 */
export const giftFormSchema = z.object({
  names: z.object(Object.fromEntries(LANGUAGE_CODES.map((lang) => [lang, giftName])) as Record<Language, typeof giftName>, { error: 'errors.field_required' }),
  credits: z.preprocess((v) => (v === '' || v === undefined ? null : v), whole(0, 10_000).nullable()),
  sort: whole(-1000, 1000),
  active: flag,
});

export type GiftForm = z.output<typeof giftFormSchema>;
