/** Spec sections 4 and 9: the welcome time bonus, 25% once per user within 4 hours of sign-up. */
export const TIME_BONUS_CODE = 'TIMEBONUS25';
export const TIME_BONUS_SECONDS = 14_400;
export const TIME_BONUS_TICK_MS = 1000;
/** Spec section 9: the time-bonus modal opens 40 s after entering the members area (at 0 credits, not dismissed). */
export const TIME_BONUS_MODAL_DELAY_MS = 40_000;
/** Spec section 2: the routes of the members area, where the banner and the modal show. */
export const TIME_BONUS_ROUTES = ['members', 'members-id', 'chats', 'chats-id', 'likes', 'likes-type', 'likes-m-id', 'premium'] as const;

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
