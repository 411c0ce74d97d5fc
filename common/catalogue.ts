import { z } from 'zod';
import { COUNTRY_CURRENCY } from './constants.ts';
import { flag, whole } from './site-settings.ts';

/**
 * A credit package as the operator console edits it (issue 27): one schema checked by the form before sending and by
 * the console's use case before anything is stored. Every message is an i18n key, shown beside its field.
 */

/** The currencies members pay in (one per known country). */
const CURRENCIES = [...new Set(Object.values(COUNTRY_CURRENCY))].sort();

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

/** "About N messages" for a package on a site whose message costs `messageCredits` (null when messages are free). */
export function aboutMessages(credits: number, messageCredits: number): number | null {
  return messageCredits > 0 ? Math.floor(credits / messageCredits) : null;
}
