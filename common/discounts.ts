import { z } from 'zod';
import { DELETE_REASONS } from './notifications.ts';

// Without zod, for the browser's pages (docs/decisions/024): the time bonus.
export {
  countdownParts, TIME_BONUS_CODE, TIME_BONUS_SECONDS, timeBonusSecondsLeft,
} from './time-bonus.ts';

/** Discounts are percentages in basis points (2500 = 25%): integer arithmetic, and 12.5% is possible. */
export const MAX_DISCOUNT_BP = 9000;

/** What a member may type as a code: letters, digits, dash and underscore, at most 32; compared in capitals. */
export const discountCodeSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{1,32}$/, 'errors.discount_code_invalid').transform((s) => s.toUpperCase());

/** The deletion page asks for its retention offer with the reason the member gave for leaving. */
export const retentionOfferRequestSchema = z.object({ reason: z.enum(DELETE_REASONS, { error: 'errors.delete_reason_required' }) });

/**
 * The one price rule: the discounted price in integer cents, rounded down to the cent (the member never
 * pays a fraction of a cent more than the exact price), and never below 1 cent (a provider cannot charge 0).
 * 995 at 25% is 746.25, charged 746.
 */
export function discountedCents(amountCents: number, percentBp: number): number {
  if (!Number.isInteger(amountCents) || amountCents < 1) throw new Error(`discountedCents: invalid amount ${amountCents}`);
  if (!Number.isInteger(percentBp) || percentBp < 0 || percentBp > MAX_DISCOUNT_BP) throw new Error(`discountedCents: invalid percentage ${percentBp}`);
  return Math.max(1, Math.floor((amountCents * (10_000 - percentBp)) / 10_000));
}

