import { randomBytes } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { CreditPackage, Order } from '#common/api-types.ts';
import type { Db } from '../db/client.ts';
import { creditPackagePrices, creditPackages, orders, payments, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { PaymentProvider, ProviderStatus } from '../infra/payments/provider.ts';
import { addCredits } from '../credits/ledger.ts';

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

export function createPaymentsService(deps: { db: Db; clock: Clock; provider: PaymentProvider }) {
  const { db, clock, provider } = deps;

  async function latestPayment(orderId: string) {
    const [p] = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.id));
    return p ?? null;
  }

  async function orderWithPayment(row: OrderRow) {
    const payment = await latestPayment(row.id);
    return { order: toOrder(row, payment?.providerRef ?? null), checkout_url: payment?.checkoutUrl ?? null };
  }

  const service = {
    async packages(currency: string): Promise<CreditPackage[]> {
      const rows = await db
        .select({ id: creditPackages.id, credits: creditPackages.credits, popular: creditPackages.popular, amount: creditPackagePrices.amountCents })
        .from(creditPackages)
        .innerJoin(creditPackagePrices, and(eq(creditPackagePrices.packageId, creditPackages.id), eq(creditPackagePrices.currency, currency)))
        .where(eq(creditPackages.active, true))
        .orderBy(asc(creditPackages.sort), asc(creditPackages.credits));
      return rows.map((r) => ({ ...r, currency }));
    },

    /** Creates an order and its payment at the provider. A retried request (same key) returns the first order. */
    async createOrder(input: {
      userId: number; packageId: number; paymentmethod: string; currency: string; idempotencyKey: string; baseUrl: string;
    }) {
      const [existing] = await db.select().from(orders)
        .where(and(eq(orders.userId, input.userId), eq(orders.idempotencyKey, input.idempotencyKey)));
      if (existing) return orderWithPayment(existing);
      const [pkg] = await db
        .select({ credits: creditPackages.credits, amount: creditPackagePrices.amountCents })
        .from(creditPackages)
        .innerJoin(creditPackagePrices, and(eq(creditPackagePrices.packageId, creditPackages.id), eq(creditPackagePrices.currency, input.currency)))
        .where(and(eq(creditPackages.id, input.packageId), eq(creditPackages.active, true)));
      if (!pkg) throw new AppError(404, 'package_not_found');
      const id = `ord_${randomBytes(12).toString('base64url')}`;
      const inserted = await db.insert(orders).values({
        id, userId: input.userId, packageId: input.packageId, credits: pkg.credits, amountCents: pkg.amount,
        currency: input.currency, paymentmethod: input.paymentmethod, idempotencyKey: input.idempotencyKey, createdAt: clock(),
      }).onConflictDoNothing().returning();
      if (inserted.length === 0) {
        // A concurrent retry created it first.
        const [first] = await db.select().from(orders)
          .where(and(eq(orders.userId, input.userId), eq(orders.idempotencyKey, input.idempotencyKey)));
        return orderWithPayment(first);
      }
      const created = await provider.createPayment({
        orderId: id, amountCents: pkg.amount, currency: input.currency, description: `${pkg.credits} credits`,
        method: input.paymentmethod, redirectUrl: `${input.baseUrl}/credits/${id}`,
        webhookUrl: `${input.baseUrl}/api/payment-webhook.php?provider=${provider.name}`,
      });
      await db.insert(payments).values({
        orderId: id, provider: provider.name, providerRef: created.ref, checkoutUrl: created.checkoutUrl, createdAt: clock(), updatedAt: clock(),
      });
      return { order: toOrder(inserted[0], created.ref), checkout_url: created.checkoutUrl };
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
      return db.transaction(async (tx) => {
        await tx.update(payments).set({ status: providerStatus, updatedAt: clock() }).where(eq(payments.id, payment.id));
        if (status === 'completed') {
          const [order] = await tx.update(orders).set({ status: 'completed', completedAt: clock() })
            .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning();
          if (order) {
            await addCredits(tx, order.userId, order.credits, 'purchase', order.id);
            await tx.update(users).set({ paidUser: true }).where(eq(users.id, order.userId));
          }
          return 'completed';
        }
        const [order] = await tx.update(orders).set({ status })
          .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning({ status: orders.status });
        return order?.status ?? 'completed';
      });
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
