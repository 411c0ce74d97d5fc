import { TEST_OUTCOMES } from '#common/constants.ts';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { testCheckouts, testMandates } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { maskAccount, type MethodsQuery, type PaymentProvider, type ProviderMandate, type ProviderPayment, type ProviderStatus } from './provider.ts';

export { TEST_OUTCOMES };
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

/** Which methods the simulated provider offers where, shaped like Mollie's availability. */
const TEST_METHODS: { id: string; countries?: string[]; currencies?: string[]; sequences: MethodsQuery['sequenceType'][] }[] = [
  { id: 'ideal', countries: ['NL'], currencies: ['EUR'], sequences: ['oneoff', 'first'] },
  { id: 'bancontact', countries: ['BE'], currencies: ['EUR'], sequences: ['oneoff', 'first'] },
  { id: 'eps', countries: ['AT'], currencies: ['EUR'], sequences: ['oneoff', 'first'] },
  { id: 'blik', countries: ['PL'], currencies: ['PLN'], sequences: ['oneoff'] },
  { id: 'creditcard', sequences: ['oneoff', 'first', 'recurring'] },
  { id: 'applepay', sequences: ['oneoff', 'first'] },
  { id: 'paypal', sequences: ['oneoff', 'first', 'recurring'] },
  { id: 'banktransfer', currencies: ['EUR'], sequences: ['oneoff'] },
  { id: 'directdebit', currencies: ['EUR'], sequences: ['recurring'] },
];

/** The mandate a paid first payment leaves behind: bank methods become SEPA direct debit, as at Mollie. */
function mandateFor(method: string): { method: string; details: string } {
  if (method === 'creditcard' || method === 'applepay') return { method: 'creditcard', details: 'Visa •••• 4242' };
  if (method === 'paypal') return { method: 'paypal', details: 't•••@example.com' };
  return { method: 'directdebit', details: 'NL•• •••• 4300' };
}

const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;

/**
 * A local stand-in for a hosted checkout. It keeps "the provider's side" in its own tables and
 * serves a checkout page at /test-checkout/{ref} where the payer picks the outcome. A first payment
 * that is paid leaves a mandate; a recurring payment on a valid mandate is paid at once (as a card
 * charge is), on any other it fails.
 */
export function createTestProvider(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  const provider: PaymentProvider & {
    /** The refunds asked for, in order: what a provider's dashboard would list (tests read the amounts sent). */
    refunds: { ref: string; amountCents: number; currency: string }[];
    checkout(ref: string): Promise<typeof testCheckouts.$inferSelect | null>;
    decide(ref: string, outcome: TestOutcome): Promise<typeof testCheckouts.$inferSelect | null>;
    /** The payer's bank takes a paid payment back; false when the payment is not (or no longer) paid. */
    chargeBack(ref: string): Promise<boolean>;
  } = {
    name: 'test',

    async createPayment(input, tx) {
      const ref = newId('tr');
      const q = tx ?? db;
      let status: ProviderStatus = 'open';
      // A direct debit on a mandate signed on our page is collected later: pending, and its checkout page
      // lets the tester settle it (the bank's answer). Other charges on a mandate are decided at once.
      const directDebit = input.sequenceType === 'recurring' && input.method === 'directdebit';
      if (input.sequenceType === 'recurring') {
        const [mandate] = input.mandateId ? await q.select().from(testMandates).where(eq(testMandates.id, input.mandateId)) : [];
        const valid = mandate && mandate.status === 'valid' && mandate.customerId === input.customerId;
        status = !valid ? 'failed' : directDebit ? 'pending' : 'paid';
      }
      await q.insert(testCheckouts).values({
        id: ref, amountCents: input.amountCents, currency: input.currency, description: input.description,
        method: input.method, redirectUrl: input.redirectUrl, webhookUrl: input.webhookUrl, createdAt: clock(), status,
        sequenceType: input.sequenceType ?? 'oneoff', customerId: input.customerId ?? null,
        mandateId: input.sequenceType === 'recurring' ? input.mandateId ?? null : null,
      });
      return { ref, checkoutUrl: input.sequenceType === 'recurring' && !directDebit ? null : `/test-checkout/${ref}` };
    },

    async getPayment(ref): Promise<ProviderPayment | null> {
      const [row] = await db.select().from(testCheckouts).where(eq(testCheckouts.id, ref));
      if (!row) return null;
      return { status: row.status, sequenceType: row.sequenceType, customerId: row.customerId, mandateId: row.mandateId };
    },

    async methods(query) {
      return TEST_METHODS.filter((m) => m.sequences.includes(query.sequenceType)
        && (!m.countries || m.countries.includes(query.country))
        && (!m.currencies || m.currencies.includes(query.currency))).map((m) => m.id);
    },

    async createCustomer() {
      return newId('cst');
    },

    async getMandate(customerId, mandateId): Promise<ProviderMandate | null> {
      const [row] = await db.select().from(testMandates).where(eq(testMandates.id, mandateId));
      if (!row || row.customerId !== customerId) return null;
      return { id: row.id, status: row.status, method: row.method, details: row.details };
    },

    async createMandate(customerId, input, tx): Promise<ProviderMandate> {
      // The idempotency key names the mandate, so a retry finds the one it made.
      const id = `mdt_${createHash('sha256').update(`${customerId}:${input.idempotencyKey}`).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x')}`;
      const details = maskAccount(input.consumerAccount);
      await (tx ?? db).insert(testMandates).values({ id, customerId, method: 'directdebit', details, createdAt: clock() }).onConflictDoNothing();
      return { id, status: 'valid', method: 'directdebit', details };
    },

    async revokeMandate(customerId, mandateId) {
      const [row] = await db.select().from(testMandates).where(eq(testMandates.id, mandateId));
      if (row && row.customerId === customerId) await db.update(testMandates).set({ status: 'invalid' }).where(eq(testMandates.id, mandateId));
    },

    async cancelPayment(ref) {
      const cancelled = await db.update(testCheckouts).set({ status: 'canceled' })
        .where(and(eq(testCheckouts.id, ref), inArray(testCheckouts.status, ['open', 'pending']))).returning({ id: testCheckouts.id });
      return cancelled.length > 0;
    },

    refunds: [],

    // Simulated money: nothing is sent back, the refund is only noted. Kept in memory, not in a table: the refund is
    // asked for inside the booking's transaction, which holds the embedded database's only connection.
    async refundPayment(ref, amountCents, currency) {
      provider.refunds.push({ ref, amountCents, currency });
    },

    async checkout(ref) {
      const [row] = await db.select().from(testCheckouts).where(eq(testCheckouts.id, ref));
      return row ?? null;
    },

    async chargeBack(ref) {
      const taken = await db.update(testCheckouts).set({ status: 'charged_back' })
        .where(and(eq(testCheckouts.id, ref), eq(testCheckouts.status, 'paid'))).returning({ id: testCheckouts.id });
      return taken.length > 0;
    },

    /** The payer's choice. A final outcome cannot be changed afterwards, as at a real provider. */
    async decide(ref, outcome) {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(testCheckouts).where(eq(testCheckouts.id, ref)).for('update');
        if (!row) return null;
        if (row.status !== 'open' && row.status !== 'pending') return row;
        let mandateId: string | null = null;
        if (outcome === 'paid' && row.sequenceType === 'first' && row.customerId) {
          mandateId = newId('mdt');
          await tx.insert(testMandates).values({ id: mandateId, customerId: row.customerId, ...mandateFor(row.method), createdAt: clock() });
        }
        const [updated] = await tx.update(testCheckouts).set({ status: outcome, ...(mandateId ? { mandateId } : {}) })
          .where(eq(testCheckouts.id, ref)).returning();
        return updated;
      });
    },
  };
  return provider;
}

export type TestProvider = ReturnType<typeof createTestProvider>;
