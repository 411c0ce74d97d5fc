import { CREDITS_BADGE_THRESHOLD, UNREAD_BADGE_CAP } from '#common/constants.ts';

/** Unread badge text: 99+ from 100. */
export function capBadge(n: number, cap = UNREAD_BADGE_CAP): string {
  return n > cap ? `${cap}+` : String(n);
}

/** Paid members see a credits badge at 10 or fewer credits: warning above 0, danger at 0. */
export function creditsBadgeVariant(credits: number): 'warning' | 'danger' | null {
  if (credits > CREDITS_BADGE_THRESHOLD) return null;
  return credits > 0 ? 'warning' : 'danger';
}

/** The paid members' credits item: repeat order when a payment method is stored (one click), else the credits page. */
export function creditsPath(repeatOrder: boolean): string {
  return repeatOrder ? '/credits/repeat-order' : '/credits';
}
