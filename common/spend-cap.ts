import { PAYMENT_METHODS, type PaymentMethod, type SpendCapPeriod } from './constants.ts';

export interface Cap { period: SpendCapPeriod; credits: number }

/** The most a cap lets a member spend in one day and in one month (no cap: unlimited). */
function allowance(cap: Cap | null) {
  if (cap === null) return { day: Infinity, month: Infinity };
  return cap.period === 'day' ? { day: cap.credits, month: cap.credits * 31 } : { day: cap.credits, month: cap.credits };
}

/**
 * A change that can never allow more spending, in any day or month, than the cap in force: it applies at
 * once. Anything else (a raise, a removal) waits for the cooling-off period. The settings card asks first.
 */
export function isStricter(next: Cap | null, current: Cap | null): boolean {
  const a = allowance(next);
  const b = allowance(current);
  return a.day <= b.day && a.month <= b.month;
}

/** The smallest bundle whose credits cover a shortfall (else the largest): what a member short of credits tops up. */
export function bundleCovering<P extends { credits: number }>(packages: readonly P[], shortfall: number): P | null {
  const sorted = [...packages].sort((a, b) => a.credits - b.credits);
  return sorted.find((p) => p.credits >= shortfall) ?? sorted.at(-1) ?? null;
}

/**
 * The bundle the credits page marks: `?package=` (a retry from the payment status page) or the smallest
 * bundle that covers `?need=` credits (a member short of credits for a message, gift or photo).
 */
export function chosenBundle(packages: { id: number; credits: number }[], query: URLSearchParams) {
  const method = query.get('method');
  const initialMethod = PAYMENT_METHODS.includes(method as PaymentMethod) ? (method as PaymentMethod) : null;
  const packageId = Number(query.get('package'));
  const chosen = packages.find((p) => p.id === packageId);
  if (chosen) return { highlightId: chosen.id, reason: 'chosen' as const, need: null, initialMethod };
  const need = Number(query.get('need'));
  if (Number.isInteger(need) && need > 0 && need <= 1_000_000) {
    const covering = bundleCovering(packages, need);
    if (covering) return { highlightId: covering.id, reason: 'need' as const, need, initialMethod };
  }
  return { highlightId: null, reason: null, need: null, initialMethod };
}
