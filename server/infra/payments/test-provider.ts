import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { testCheckouts } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { PaymentProvider, ProviderStatus } from './provider.ts';

export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'pending'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

/**
 * A local stand-in for a hosted checkout. It keeps "the provider's side" in its own table and
 * serves a checkout page at /test-checkout/{ref} where the payer picks the outcome.
 */
export function createTestProvider(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  const provider: PaymentProvider & {
    checkout(ref: string): Promise<typeof testCheckouts.$inferSelect | null>;
    decide(ref: string, outcome: TestOutcome): Promise<typeof testCheckouts.$inferSelect | null>;
  } = {
    name: 'test',

    async createPayment(input, tx) {
      const ref = `tr_${randomBytes(9).toString('base64url')}`;
      await (tx ?? db).insert(testCheckouts).values({
        id: ref, amountCents: input.amountCents, currency: input.currency, description: input.description,
        method: input.method, redirectUrl: input.redirectUrl, webhookUrl: input.webhookUrl, createdAt: clock(),
      });
      return { ref, checkoutUrl: `/test-checkout/${ref}` };
    },

    async getStatus(ref): Promise<ProviderStatus | null> {
      const [row] = await db.select({ status: testCheckouts.status }).from(testCheckouts).where(eq(testCheckouts.id, ref));
      return row?.status ?? null;
    },

    async cancelPayment(ref) {
      const cancelled = await db.update(testCheckouts).set({ status: 'canceled' })
        .where(and(eq(testCheckouts.id, ref), inArray(testCheckouts.status, ['open', 'pending']))).returning({ id: testCheckouts.id });
      return cancelled.length > 0;
    },

    // Simulated money: there is nothing to send back.
    async refundPayment() {},

    async checkout(ref) {
      const [row] = await db.select().from(testCheckouts).where(eq(testCheckouts.id, ref));
      return row ?? null;
    },

    /** The payer's choice. A final outcome cannot be changed afterwards, as at a real provider. */
    async decide(ref, outcome) {
      const [row] = await db.select().from(testCheckouts).where(eq(testCheckouts.id, ref));
      if (!row) return null;
      if (row.status === 'open' || row.status === 'pending') {
        const [updated] = await db.update(testCheckouts).set({ status: outcome }).where(eq(testCheckouts.id, ref)).returning();
        return updated;
      }
      return row;
    },
  };
  return provider;
}

export type TestProvider = ReturnType<typeof createTestProvider>;
