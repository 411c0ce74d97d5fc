import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { invoiceNumbers, orders, payments, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import type { ProviderStatus } from '../infra/payments/provider.ts';
import { addCredits } from '../credits/ledger.ts';
import type { DiscountsService } from './discounts.service.ts';
import type { Mandates } from './mandates.ts';
import type { PaymentProviders } from './providers.ts';
import { atProvider } from './orders.ts';

type OrderStatus = (typeof orders.$inferSelect)['status'];

/** The order's status for the provider's; a chargeback (null) leaves the order as it is and only marks the payment. */
const STATUS_MAP: Record<ProviderStatus, OrderStatus | null> = {
  open: 'open', pending: 'pending', authorized: 'pending', paid: 'completed',
  canceled: 'cancelled', expired: 'failed', failed: 'failed', charged_back: null,
};

/** What the provider says of a payment, applied to its order: the only way credits are bought. */
export function createPaymentStatus(deps: {
  db: Db; clock: Clock; providers: PaymentProviders; events: EventBus; mandates: Pick<Mandates, 'store'>;
  /** Books the use of the order's discount code when it completes. */
  discounts: Pick<DiscountsService, 'redeem'>;
}) {
  const { db, clock, providers } = deps;
  return {
    /**
     * Asks the provider for the payment's status and applies it. Webhooks and the return page may call
     * this any number of times, in any order: the order moves to completed once, and only that move books
     * the credits (and makes the member premium on their first bundle). A paid first payment stores the
     * mandate it created. A chargeback marks the payment 'charged_back' (dated by its updated_at) and leaves the order.
     * Unknown ids (here or at the provider) change nothing and answer null.
     */
    async sync(providerName: string, providerRef: string): Promise<OrderStatus | null> {
      const [payment] = await db.select().from(payments).where(and(eq(payments.provider, providerName), eq(payments.providerRef, providerRef)));
      if (!payment) return null;
      const sp = await providers.forAccount(payment.accountId);
      const remote = await atProvider(() => sp.provider.getPayment(providerRef));
      if (!remote) return null;
      const providerStatus = remote.status;
      const status = STATUS_MAP[providerStatus];
      let booked: number | null = null;
      const result = await db.transaction(async (tx): Promise<OrderStatus> => {
        // updated_at is the moment of the last change of status (the reports date a chargeback by it), so a repeated webhook leaves it.
        await tx.update(payments).set({ status: providerStatus, updatedAt: clock() }).where(and(eq(payments.id, payment.id), ne(payments.status, providerStatus)));
        if (status === null) {
          // A chargeback: the order was paid and stays as it is (its credits too); the payment says the money went back.
          const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, payment.orderId));
          return order.status;
        }
        if (status === 'completed') {
          const [order] = await tx.update(orders).set({
            status: 'completed', completedAt: clock(),
            invoiceNumber: sql`${String(clock().getUTCFullYear())}::text || '-' || nextval('${sql.raw(invoiceNumbers.seqName ?? '')}')`,
          })
            .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning();
          if (order) {
            await addCredits(tx, order.userId, order.credits, 'purchase', order.id);
            await deps.discounts.redeem(tx, order);
            await tx.update(users).set({ paidUser: true }).where(eq(users.id, order.userId));
            booked = order.userId;
          }
          return 'completed';
        }
        // A payment that can no longer be paid gives its order's once-per-user code back (discounts.hold).
        const released = status === 'failed' || status === 'cancelled';
        const [order] = await tx.update(orders).set({ status, ...(released && { discountHoldId: null }) })
          .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning({ status: orders.status });
        return order?.status ?? 'completed';
      });
      if (status === 'completed' && payment.sequenceType === 'first' && remote.customerId && remote.mandateId) {
        const [order] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, payment.orderId));
        await deps.mandates.store(order.userId, sp, remote.customerId, remote.mandateId);
      }
      if (booked !== null) deps.events.emit('credits.changed', { userId: booked });
      return result;
    },
  };
}

export type PaymentStatus = ReturnType<typeof createPaymentStatus>;
