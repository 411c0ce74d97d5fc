import type { SpendCapPeriod } from './constants.ts';

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
