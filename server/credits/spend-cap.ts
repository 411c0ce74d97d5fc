import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { COUNTRY_TIME_ZONE, SPEND_CAP_COOLING_OFF_HOURS, type SpendCapPeriod } from '#common/constants.ts';
import type { Db, Tx } from '../db/client.ts';
import { creditLedger, profiles, spendCaps, type LedgerReason } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import { localDay, localMonth } from '../games/local-day.ts';
import type { Cap } from '#common/spend-cap.ts';

/** Ledger reasons that are the member's own spending (what a spend cap counts). */
export const SPEND_REASONS = ['message', 'gift', 'chat_photo'] as const satisfies readonly LedgerReason[];

export type { Cap } from '#common/spend-cap.ts';
export { isStricter } from '#common/spend-cap.ts';
type CapRow = typeof spendCaps.$inferSelect;

/** The cap in force at `now`: a pending raise or removal whose cooling-off has ended counts as applied. */
export function capInForce(row: CapRow | undefined, now: Date): Cap | null {
  if (!row) return null;
  if (row.pendingFrom && row.pendingFrom <= now) {
    return row.pendingPeriod && row.pendingCredits ? { period: row.pendingPeriod, credits: row.pendingCredits } : null;
  }
  return row.period && row.credits ? { period: row.period, credits: row.credits } : null;
}

const timeZoneOf = (country: string | null | undefined) => (country && COUNTRY_TIME_ZONE[country]) || 'UTC';

/** The member's current local day or month (their profile country's time zone), for counting what they spent. */
export async function capWindow(q: Db | Tx, userId: number, period: SpendCapPeriod, now: Date) {
  const [profile] = await q.select({ country: profiles.country }).from(profiles).where(eq(profiles.userId, userId));
  const zone = timeZoneOf(profile?.country);
  return period === 'day' ? localDay(now, zone) : localMonth(now, zone);
}

/** Credits the member spent in [start, end). */
export async function spentBetween(q: Db | Tx, userId: number, window: { start: Date; end: Date }): Promise<number> {
  const [row] = await q.select({ spent: sql<number>`coalesce(-sum(${creditLedger.delta}), 0)`.mapWith(Number) }).from(creditLedger)
    .where(and(
      eq(creditLedger.userId, userId), inArray(creditLedger.reason, [...SPEND_REASONS]), lt(creditLedger.delta, 0),
      gte(creditLedger.createdAt, window.start), lt(creditLedger.createdAt, window.end),
    ));
  return row.spent;
}

/**
 * Refuses a spend that would take the member over their own cap (409, nothing changes: the caller's
 * transaction rolls back). With `booked`, the spend's ledger row is already in the transaction. Runs
 * after the spend's conditional balance update, which holds the member's
 * row: concurrent spends of one member are counted one after the other, so together they cannot pass the cap.
 */
export async function assertWithinSpendCap(tx: Tx, userId: number, amount: number, now: Date, options: { booked?: boolean } = {}): Promise<void> {
  const [row] = await tx.select().from(spendCaps).where(eq(spendCaps.userId, userId));
  const cap = capInForce(row, now);
  if (!cap) return;
  // `booked`: the spend's ledger row is already written (in this transaction), so the sum holds it.
  const spent = (await spentBetween(tx, userId, await capWindow(tx, userId, cap.period, now))) - (options.booked ? amount : 0);
  if (spent + amount > cap.credits) {
    throw new AppError(409, cap.period === 'day' ? 'daily_spend_cap_reached' : 'monthly_spend_cap_reached', {
      cap: cap.credits, left: Math.max(0, cap.credits - spent),
    });
  }
}

export const COOLING_OFF_MS = SPEND_CAP_COOLING_OFF_HOURS * 3_600_000;
