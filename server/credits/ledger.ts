import { and, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { creditLedger, users } from '../db/schema.ts';

type Reason = (typeof creditLedger.$inferInsert)['reason'];

/**
 * Adds credits inside the caller's transaction: the cached balance and the ledger row change together.
 * `reference` is unique per reason, so booking the same purchase twice fails and rolls the transaction back.
 * Returns the new balance.
 */
export async function addCredits(tx: Tx, userId: number, amount: number, reason: Reason, reference: string): Promise<number> {
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
 * when the balance is too low (nothing changed).
 */
export async function spendCredits(tx: Tx, userId: number, amount: number, reason: Reason, reference: string): Promise<number | null> {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`spendCredits: invalid amount ${amount}`);
  const [user] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} - ${amount}` })
    .where(and(eq(users.id, userId), gte(users.credits, amount)))
    .returning({ credits: users.credits });
  if (!user) return null;
  if (amount > 0) {
    await tx.insert(creditLedger).values({ userId, delta: -amount, balanceAfter: user.credits, reason, reference });
  }
  return user.credits;
}
