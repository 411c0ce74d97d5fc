import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { creditLedger, users, type LedgerReason } from '../db/schema.ts';
import { assertWithinSpendCap } from './spend-cap.ts';

/**
 * Adds credits inside the caller's transaction: the cached balance and the ledger row change together.
 * `reference` is unique per reason, so booking the same purchase twice fails and rolls the transaction back.
 * Returns the new balance.
 */
export async function addCredits(tx: Tx, userId: number, amount: number, reason: LedgerReason, reference: string): Promise<number> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`addCredits: invalid amount ${amount}`);
  const [user] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} + ${amount}` })
    .where(eq(users.id, userId))
    .returning({ credits: users.credits });
  await tx.insert(creditLedger).values({ userId, delta: amount, balanceAfter: user.credits, reason, reference });
  return user.credits;
}

/**
 * Spends credits inside the caller's transaction. The conditional update is the guard: two concurrent
 * spends cannot both pass it, so the balance never goes below zero. Returns the new balance, or null
 * when the balance is too low (nothing changed). Every spend path comes through here, so here the
 * member's own spend cap is enforced (409 daily_/monthly_spend_cap_reached; `now` is the caller's clock).
 * The one exception, the chat's send, books the same update and ledger row in its combined statement
 * through spendSql and spendLedgerRowSql below, and then checks the cap with assertWithinSpendCap(…, { booked: true }).
 */
export async function spendCredits(tx: Tx, userId: number, amount: number, reason: LedgerReason, reference: string, now: Date): Promise<number | null> {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`spendCredits: invalid amount ${amount}`);
  const [user] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} - ${amount}` })
    .where(and(eq(users.id, userId), gte(users.credits, amount)))
    .returning({ credits: users.credits });
  if (!user) return null;
  if (amount > 0) {
    await assertWithinSpendCap(tx, userId, amount, now);
    await tx.insert(creditLedger).values({ userId, delta: -amount, balanceAfter: user.credits, reason, reference, createdAt: now });
  }
  return user.credits;
}

/**
 * Takes credits back inside the caller's transaction (a refunded purchase), as many as the balance still
 * holds: the balance never goes below zero. Returns the credits taken (0: no ledger row).
 */
export async function takeBackCredits(tx: Tx, userId: number, amount: number, reason: LedgerReason, reference: string): Promise<number> {
  const [locked] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, userId)).for('update');
  const taken = Math.min(amount, locked?.credits ?? 0);
  if (taken <= 0) return 0;
  const [user] = await tx.update(users).set({ credits: sql`${users.credits} - ${taken}` }).where(eq(users.id, userId)).returning({ credits: users.credits });
  await tx.insert(creditLedger).values({ userId, delta: -taken, balanceAfter: user.credits, reason, reference });
  return taken;
}

/**
 * spendCredits as parts of one SQL statement, for a caller that books the spend together with other rows (the
 * chat's send, server/chat/chat.service.ts). spendSql is the conditional update of the balance, the body of a
 * CTE named `debit` that returns the new balance (no row: too low, or nothing to spend); spendLedgerRowSql is the
 * ledger row inserted from `debit` and the row the spend pays for (`from`, `reference`).
 */
export function spendSql(userId: number, amount: number): SQL {
  return sql`update ${users} set credits = credits - ${amount}::int where id = ${userId} and ${amount}::int > 0 and credits >= ${amount}::int returning credits`;
}

export function spendLedgerRowSql(input: { userId: number; amount: number; reason: LedgerReason; reference: SQL; from: SQL; now: Date }): SQL {
  return sql`insert into ${creditLedger} (user_id, delta, balance_after, reason, reference, created_at)
        select ${input.userId}::int, ${-input.amount}::int, debit.credits, ${input.reason}::text, ${input.reference}::text, ${input.now}::timestamptz from ${input.from}`;
}
