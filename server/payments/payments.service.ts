import { randomBytes } from 'node:crypto';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { CreditPackage, Order } from '#common/api-types.ts';
import type { Db, Tx } from '../db/client.ts';
import { creditPackagePrices, creditPackages, invoiceNumbers, orders, payments, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { PaymentProvider, ProviderStatus } from '../infra/payments/provider.ts';
import { addCredits } from '../credits/ledger.ts';
import type { TestOutcome, TestProvider } from '../infra/payments/test-provider.ts';

type OrderRow = typeof orders.$inferSelect;
type OrderStatus = OrderRow['status'];

const STATUS_MAP: Record<ProviderStatus, OrderStatus> = {
  open: 'open', pending: 'pending', authorized: 'pending', paid: 'completed',
  canceled: 'cancelled', expired: 'failed', failed: 'failed',
};

function toOrder(row: OrderRow, paymentRef: string | null): Order {
  return {
    id: row.id, credits: row.credits, amount: row.amountCents, currency: row.currency,
    paymentmethod: row.paymentmethod, status: row.status, payment_id: paymentRef,
  };
}

/**
 * Simulated payments: 'local' on a developer's machine, 'public' when the operator allowed them on a public
 * origin (ALLOW_TEST_PAYMENTS), 'refused' on a public origin otherwise; 'none' when a real provider is used.
 */
export type TestPaymentsMode = 'none' | 'local' | 'public' | 'refused';

export function createPaymentsService(deps: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  /** The test provider's checkouts, when it is the provider. */
  testCheckouts?: TestProvider;
  /** ALLOW_TEST_PAYMENTS: the operator's explicit consent to simulated payments on a public origin. */
  allowTestPaymentsOnPublic?: boolean;
  isPublicDeployment: () => Promise<boolean>;
  events: EventBus;
}) {
  const { db, clock, provider, testCheckouts } = deps;

  async function latestPayment(orderId: string, q: Db | Tx = db) {
    const [p] = await q.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.id));
    return p ?? null;
  }

  async function orderWithPayment(row: OrderRow, q: Db | Tx = db) {
    const payment = await latestPayment(row.id, q);
    return { order: toOrder(row, payment?.providerRef ?? null), checkout_url: payment?.checkoutUrl ?? null };
  }

  /** Opens the provider's payment for an order and records it, inside the caller's transaction. */
  async function openPayment(tx: Tx, row: OrderRow, baseUrl: string) {
    const created = await provider.createPayment({
      orderId: row.id, amountCents: row.amountCents, currency: row.currency, description: `${row.credits} credits`,
      method: row.paymentmethod, redirectUrl: `${baseUrl}/credits/${row.id}`,
      webhookUrl: `${baseUrl}/api/payment-webhook.php?provider=${provider.name}`,
    }, tx);
    await tx.insert(payments).values({
      orderId: row.id, provider: provider.name, providerRef: created.ref, checkoutUrl: created.checkoutUrl, createdAt: clock(), updatedAt: clock(),
    });
    return { order: toOrder(row, created.ref), checkout_url: created.checkoutUrl };
  }

  /** The member's own test checkout; anybody else's, or any when simulated payments are refused, does not exist. */
  async function ownTestCheckout(userId: number, ref: string) {
    if (!testCheckouts || !['local', 'public'].includes(await service.testPayments())) throw notFound();
    const [owner] = await db.select({ userId: orders.userId }).from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.provider, testCheckouts.name), eq(payments.providerRef, ref)));
    if (!owner || owner.userId !== userId) throw notFound();
    const checkout = await testCheckouts.checkout(ref);
    if (!checkout) throw notFound();
    return { checkouts: testCheckouts, checkout };
  }

  const service = {
    async testPayments(): Promise<TestPaymentsMode> {
      if (!testCheckouts || provider.name !== testCheckouts.name) return 'none';
      if (!(await deps.isPublicDeployment())) return 'local';
      return deps.allowTestPaymentsOnPublic ? 'public' : 'refused';
    },

    /** The test provider's hosted checkout page, for the member who placed the order. */
    async testCheckout(userId: number, ref: string) {
      return (await ownTestCheckout(userId, ref)).checkout;
    },

    /** The payer's choice on the test checkout (only the order's owner); returns where the payer goes next. */
    async decideTestCheckout(userId: number, ref: string, outcome: TestOutcome): Promise<string> {
      const { checkouts, checkout } = await ownTestCheckout(userId, ref);
      const decided = await checkouts.decide(checkout.id, outcome);
      if (!decided) throw notFound();
      await service.sync(checkout.id);
      return decided.redirectUrl;
    },

    async packages(currency: string): Promise<CreditPackage[]> {
      const rows = await db
        .select({ id: creditPackages.id, credits: creditPackages.credits, popular: creditPackages.popular, amount: creditPackagePrices.amountCents })
        .from(creditPackages)
        .innerJoin(creditPackagePrices, and(eq(creditPackagePrices.packageId, creditPackages.id), eq(creditPackagePrices.currency, currency)))
        .where(eq(creditPackages.active, true))
        .orderBy(asc(creditPackages.sort), asc(creditPackages.credits));
      return rows.map((r) => ({ ...r, currency }));
    },

    /**
     * Creates an order and its payment at the provider. A retried request (same key, same package and
     * method) returns the first order; the same key with another package or method is refused.
     * Retries wait for the first request under a lock on (member, key), and the order and its payment
     * commit together: no retry ever sees an order it cannot pay.
     */
    async createOrder(input: {
      userId: number; packageId: number; paymentmethod: string; currency: string; idempotencyKey: string; baseUrl: string;
      /** The member agreed that delivery starts at once and their right of withdrawal lapses (EU); no order without it. */
      withdrawalConsent: boolean;
    }) {
      if (input.withdrawalConsent !== true) throw new AppError(400, 'withdrawal_consent_required');
      // Simulated payments on a public origin would hand out credits for nothing.
      if ((await service.testPayments()) === 'refused') throw new AppError(503, 'payments_unavailable');
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order:${input.userId}:${input.idempotencyKey}`}, 0))`);
        const [existing] = await tx.select().from(orders)
          .where(and(eq(orders.userId, input.userId), eq(orders.idempotencyKey, input.idempotencyKey)));
        if (existing) {
          if (existing.packageId !== input.packageId || existing.paymentmethod !== input.paymentmethod) {
            throw new AppError(422, 'idempotency_key_reused');
          }
          const found = await orderWithPayment(existing, tx);
          // An order left without a payment (e.g. by an older version) gets one now instead of staying unpayable.
          if (found.checkout_url === null && existing.status === 'open') return openPayment(tx, existing, input.baseUrl);
          return found;
        }
        const [pkg] = await tx
          .select({ credits: creditPackages.credits, amount: creditPackagePrices.amountCents })
          .from(creditPackages)
          .innerJoin(creditPackagePrices, and(eq(creditPackagePrices.packageId, creditPackages.id), eq(creditPackagePrices.currency, input.currency)))
          .where(and(eq(creditPackages.id, input.packageId), eq(creditPackages.active, true)));
        if (!pkg) throw new AppError(404, 'package_not_found');
        const [row] = await tx.insert(orders).values({
          id: `ord_${randomBytes(12).toString('base64url')}`, userId: input.userId, packageId: input.packageId, credits: pkg.credits,
          amountCents: pkg.amount, currency: input.currency, paymentmethod: input.paymentmethod,
          idempotencyKey: input.idempotencyKey, createdAt: clock(), withdrawalConsentAt: clock(),
        }).returning();
        // A provider that fails rolls the order back too, so a retry starts afresh.
        return openPayment(tx, row, input.baseUrl);
      });
    },

    /**
     * Asks the provider for the payment's status and applies it. Webhooks and the return page may call
     * this any number of times, in any order: the order moves to completed once, and only that move books
     * the credits (and makes the member premium on their first bundle).
     */
    async sync(providerRef: string): Promise<OrderStatus | null> {
      const [payment] = await db.select().from(payments).where(and(eq(payments.provider, provider.name), eq(payments.providerRef, providerRef)));
      if (!payment) return null;
      const providerStatus = await provider.getStatus(providerRef);
      if (!providerStatus) return null;
      const status = STATUS_MAP[providerStatus];
      let booked: number | null = null;
      const result = await db.transaction(async (tx): Promise<OrderStatus> => {
        await tx.update(payments).set({ status: providerStatus, updatedAt: clock() }).where(eq(payments.id, payment.id));
        if (status === 'completed') {
          const [order] = await tx.update(orders).set({
            status: 'completed', completedAt: clock(),
            invoiceNumber: sql`${String(clock().getUTCFullYear())}::text || '-' || nextval('${sql.raw(invoiceNumbers.seqName ?? '')}')`,
          })
            .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning();
          if (order) {
            await addCredits(tx, order.userId, order.credits, 'purchase', order.id);
            await tx.update(users).set({ paidUser: true }).where(eq(users.id, order.userId));
            booked = order.userId;
          }
          return 'completed';
        }
        const [order] = await tx.update(orders).set({ status })
          .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning({ status: orders.status });
        return order?.status ?? 'completed';
      });
      if (booked !== null) deps.events.emit('credits.changed', { userId: booked });
      return result;
    },

    /** The member's own order; an open or pending one is refreshed from the provider first. */
    async order(userId: number, orderId: string) {
      const [row] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      if (!row) throw notFound();
      if (row.status === 'open' || row.status === 'pending') {
        const payment = await latestPayment(row.id);
        if (payment) await service.sync(payment.providerRef);
        const [fresh] = await db.select().from(orders).where(eq(orders.id, orderId));
        return orderWithPayment(fresh);
      }
      return orderWithPayment(row);
    },
  };
  return service;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
