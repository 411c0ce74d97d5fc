/**
 * Part refunds (decision 066): how much money an amount typed by staff is, and how many of an order's credits a
 * refund takes back.
 */

/**
 * An amount of money as cents: "12.34" or "12,34" is always in the currency's units; a bare whole number is in units
 * too, or in cents where `bare` says so (the command line's `--amount 1234`). Null when it is not a number of whole
 * cents ("12.345", "abc"); a negative or zero amount is returned as it is, for the use case to refuse.
 */
export function parseMoneyAmount(text: string, bare: 'units' | 'cents' = 'units'): number | null {
  const match = /^([+-]?)(\d{1,9})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction] = match;
  if (fraction === undefined && bare === 'cents') return Number(`${sign}${whole}`) || 0;
  // "12.50" and "12.500" are whole cents; "12.505" is not.
  if (fraction && /[1-9]/.test(fraction.slice(2))) return null;
  const cents = Number(whole) * 100 + Number((fraction ?? '').slice(0, 2).padEnd(2, '0'));
  return sign === '-' ? -cents : cents;
}

/** Cents as the units a form shows them in: 1250 → "12.50". */
export const moneyUnits = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/**
 * The credits a refund of `partCents` takes back: the refunded share of the order's credits, rounded down, counted on
 * what has been refunded in all, so that parts adding up to the whole take back exactly the order's credits (and a
 * cent refunded now and then never adds up to less). The balance may hold fewer: the use case stops at the balance.
 */
export function refundCreditShare(order: { credits: number; amountCents: number; refundedCents: number }, partCents: number): number {
  if (order.amountCents <= 0) return 0;
  const share = (cents: number) => Math.floor((order.credits * cents) / order.amountCents);
  return share(order.refundedCents + partCents) - share(order.refundedCents);
}
