import { z } from 'zod';

/** Spec sections 4 and 9: the welcome time bonus, 25% once per user within 4 hours of sign-up. */
export const TIME_BONUS_CODE = 'TIMEBONUS25';
export const TIME_BONUS_PERCENT = 25;
export const TIME_BONUS_SECONDS = 14_400;
export const TIME_BONUS_TICK_MS = 1000;
/** Spec section 9: the time-bonus modal opens 40 s after entering the members area (at 0 credits, not dismissed). */
export const TIME_BONUS_MODAL_DELAY_MS = 40_000;
/** Spec section 2: the routes of the members area, where the banner and the modal show. */
export const TIME_BONUS_ROUTES = ['members', 'members-id', 'chats', 'chats-id', 'likes', 'likes-type', 'likes-m-id', 'premium'] as const;

/** Discounts are percentages in basis points (2500 = 25%): integer arithmetic, and 12.5% is possible. */
export const MAX_DISCOUNT_BP = 9000;

/** What a member may type as a code: letters, digits, dash and underscore, at most 32; compared in capitals. */
export const discountCodeSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{1,32}$/, 'errors.discount_code_invalid').transform((s) => s.toUpperCase());

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

/** Seconds of the time bonus left at `nowMs` for a member who signed up at `signupDate` (0 when over). */
export function timeBonusSecondsLeft(signupDate: string | Date, nowMs: number): number {
  const signup = new Date(signupDate).getTime();
  if (Number.isNaN(signup)) return 0;
  const elapsed = Math.floor((nowMs - signup) / 1000);
  return Math.max(0, Math.min(TIME_BONUS_SECONDS, TIME_BONUS_SECONDS - elapsed));
}

/** Spec section 3 (time bonus state): hours, minutes and seconds as two-digit strings. */
export function countdownParts(seconds: number): { hours: string; minutes: string; seconds: string } {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  return { hours: two(Math.floor(s / 3600)), minutes: two(Math.floor((s % 3600) / 60)), seconds: two(s % 60) };
}
