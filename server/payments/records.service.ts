import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { requireMember, type Actor } from '../actor.ts';
import type { LedgerEntry, SpendCap, TransactionOrder, TransactionOrderDetail } from '#common/api-types.ts';
import { SPEND_CAP_COOLING_OFF_HOURS } from '#common/constants.ts';
import type { Db } from '../db/client.ts';
import { creditLedger, orders, payments, spendCaps } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { PaymentProviders } from './providers.ts';
import type { AuditLog } from '../staff/audit.ts';
import { capInForce, capWindow, COOLING_OFF_MS, isStricter, spentBetween, type Cap } from '../credits/spend-cap.ts';
import type { PaymentsService } from './payments.service.ts';
import { createOrderRefunds, type RefundInput } from './order-refunds.ts';

type OrderRow = typeof orders.$inferSelect;

export const ORDERS_PAGE_SIZE = 10;
export const LEDGER_PAGE_SIZE = 25;

function toTransactionOrder(row: OrderRow): TransactionOrder {
  return {
    id: row.id, package_id: row.packageId, credits: row.credits, amount: row.amountCents, currency: row.currency, paymentmethod: row.paymentmethod,
    status: row.status, created_at: row.createdAt.toISOString(), completed_at: row.completedAt?.toISOString() ?? null,
    refunded_at: row.refundedAt?.toISOString() ?? null, refunded_amount: row.refundedCents, invoice_number: row.status === 'completed' ? row.invoiceNumber : null,
    withdrawal_consent_at: row.withdrawalConsentAt?.toISOString() ?? null,
  };
}

function toLedgerEntry(row: typeof creditLedger.$inferSelect): LedgerEntry {
  return {
    id: row.id, delta: row.delta, balance_after: row.balanceAfter, reason: row.reason, created_at: row.createdAt.toISOString(),
    // A part refund's reference is `<order>/<refund>` (decision 066); a whole refund's before parts existed, the order.
    order_id: row.reason === 'purchase' || row.reason === 'refund' ? row.reference.split('/')[0] : null,
  };
}

const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/**
 * The member's records (orders, payments, the credit ledger), their spend cap, cancelling an unpaid
 * order, and refunds booked by the operator or the system.
 */
export function createRecordsService(deps: { db: Db; clock: Clock; providers: PaymentProviders; payments: PaymentsService; events: EventBus; audit: AuditLog }) {
  const { db, clock, providers } = deps;
  const refunds = createOrderRefunds(deps);

  async function ownOrder(userId: number, orderId: string): Promise<OrderRow> {
    const [row] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
    if (!row) throw notFound();
    return row;
  }

  async function spendCapOf(userId: number): Promise<SpendCap> {
    const now = clock();
    const [row] = await db.select().from(spendCaps).where(eq(spendCaps.userId, userId));
    const cap = capInForce(row, now);
    const waiting = row?.pendingFrom && row.pendingFrom > now ? row : null;
    const spent = cap ? await spentBetween(db, userId, await capWindow(db, userId, cap.period, now)) : 0;
    return {
      period: cap?.period ?? null, credits: cap?.credits ?? null, spent,
      // A raise (or, with credits null, a removal) waiting for its cooling-off period.
      pending: waiting?.pendingFrom
        ? { period: waiting.pendingCredits ? waiting.pendingPeriod : null, credits: waiting.pendingCredits, from: waiting.pendingFrom.toISOString() }
        : null,
      cooling_off_hours: SPEND_CAP_COOLING_OFF_HOURS,
    };
  }

  return {
    /** The member's orders, newest first, a page at a time (page 1 first). */
    async orders(actor: Actor, page: number) {
      const { userId } = requireMember(actor);
      const total = await db.$count(orders, eq(orders.userId, userId));
      const rows = await db.select().from(orders).where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt), desc(orders.id)).limit(ORDERS_PAGE_SIZE).offset((page - 1) * ORDERS_PAGE_SIZE);
      return { orders: rows.map(toTransactionOrder), page, pages: pageCount(total, ORDERS_PAGE_SIZE) };
    },

    /** The member's credit ledger, newest first, a page at a time. */
    async ledger(actor: Actor, page: number) {
      const { userId } = requireMember(actor);
      const total = await db.$count(creditLedger, eq(creditLedger.userId, userId));
      const rows = await db.select().from(creditLedger).where(eq(creditLedger.userId, userId))
        .orderBy(desc(creditLedger.id)).limit(LEDGER_PAGE_SIZE).offset((page - 1) * LEDGER_PAGE_SIZE);
      return { entries: rows.map(toLedgerEntry), page, pages: pageCount(total, LEDGER_PAGE_SIZE) };
    },

    /** One of the member's orders with its payments and ledger rows; anybody else's does not exist. */
    async orderDetail(actor: Actor, orderId: string): Promise<TransactionOrderDetail> {
      const { userId } = requireMember(actor);
      const row = await ownOrder(userId, orderId);
      const [paymentRows, ledgerRows] = await Promise.all([
        db.select().from(payments).where(eq(payments.orderId, row.id)).orderBy(payments.id),
        db.select().from(creditLedger)
          .where(and(
            eq(creditLedger.userId, userId), inArray(creditLedger.reason, ['purchase', 'refund']),
            or(eq(creditLedger.reference, row.id), sql`split_part(${creditLedger.reference}, '/', 1) = ${row.id}`),
          ))
          .orderBy(creditLedger.id),
      ]);
      return {
        ...toTransactionOrder(row),
        refund_reason: row.refundReason,
        payments: paymentRows.map((p) => ({ id: p.providerRef, status: p.status, created_at: p.createdAt.toISOString(), updated_at: p.updatedAt.toISOString() })),
        ledger: ledgerRows.map(toLedgerEntry),
      };
    },

    /**
     * Cancels the member's own open or pending order. The provider's payment is cancelled where it allows
     * it; the order is cancelled on our side in any case (should the money still arrive, the webhook
     * completes it and books the credits). A cancelled order answers as it is: calling again is harmless.
     */
    async cancelOrder(actor: Actor, orderId: string) {
      const { userId } = requireMember(actor);
      const row = await ownOrder(userId, orderId);
      if (row.status === 'open' || row.status === 'pending') {
        const [payment] = await db.select().from(payments).where(eq(payments.orderId, row.id)).orderBy(desc(payments.id)).limit(1);
        // Paid in the meantime? Then there is nothing to cancel.
        if (payment) {
          await deps.payments.sync(payment.provider, payment.providerRef);
          // The provider that took the payment (the site's account at the time) cancels it.
          const { provider } = await providers.forAccount(payment.accountId);
          if (provider.cancelPayment && payment.provider === provider.name && (await provider.cancelPayment(payment.providerRef))) {
            await deps.payments.sync(payment.provider, payment.providerRef);
          }
        }
        // Without a payment nothing can be paid any more: the once-per-user code is free again. A payment the
        // provider would not cancel keeps the code held until it fails or expires (the webhook frees it then).
        await db.update(orders).set({ status: 'cancelled', ...(payment ? {} : { discountHoldId: null }) })
          .where(and(eq(orders.id, row.id), inArray(orders.status, ['open', 'pending'])));
      }
      const [fresh] = await db.select().from(orders).where(eq(orders.id, row.id));
      if (fresh.status !== 'cancelled') throw new AppError(409, 'order_not_cancellable');
      return deps.payments.order(actor, row.id);
    },

    /** Refunds a completed order, whole or a part of it (order-refunds.ts); the order as the member's records show it. */
    async refundOrder(actor: Actor, orderId: string, input: RefundInput, from: { ip?: string | null } = {}) {
      const { order, refund } = await refunds.refundOrder(actor, orderId, input, from);
      return { order: toTransactionOrder(order), refund_reason: refund.reason, amount: refund.amountCents, credits_taken: refund.creditsTaken };
    },
    refundPreview: refunds.refundPreview,

    /** The member's spend cap, what it has spent in the cap's period, and a raise or removal still waiting. */
    async spendCap(actor: Actor): Promise<SpendCap> {
      return spendCapOf(requireMember(actor).userId);
    },

    /**
     * Sets (credits > 0) or removes (null) the member's spend cap. A stricter cap applies at once and drops
     * any raise still waiting; a raise or a removal waits SPEND_CAP_COOLING_OFF_HOURS (the member is told).
     */
    async setSpendCap(actor: Actor, next: Cap | null): Promise<SpendCap & { applied: 'now' | 'later' }> {
      const { userId } = requireMember(actor);
      const now = clock();
      const applied = await db.transaction(async (tx) => {
        await tx.insert(spendCaps).values({ userId, updatedAt: now }).onConflictDoNothing();
        const [row] = await tx.select().from(spendCaps).where(eq(spendCaps.userId, userId)).for('update');
        const current = capInForce(row, now);
        if (isStricter(next, current)) {
          await tx.update(spendCaps).set({
            period: next?.period ?? null, credits: next?.credits ?? null, pendingPeriod: null, pendingCredits: null, pendingFrom: null, updatedAt: now,
          }).where(eq(spendCaps.userId, userId));
          return 'now' as const;
        }
        await tx.update(spendCaps).set({
          period: current?.period ?? null, credits: current?.credits ?? null,
          pendingPeriod: next?.period ?? null, pendingCredits: next?.credits ?? null, pendingFrom: new Date(now.getTime() + COOLING_OFF_MS), updatedAt: now,
        }).where(eq(spendCaps.userId, userId));
        return 'later' as const;
      });
      return { ...(await spendCapOf(userId)), applied };
    },

    /** The order's company details and numbers, for its invoice (completed orders of this member only). */
    async invoiceData(actor: Actor, orderId: string) {
      const { userId } = requireMember(actor);
      const row = await ownOrder(userId, orderId);
      if (row.status !== 'completed' || !row.completedAt) throw notFound();
      let invoiceNumber = row.invoiceNumber;
      // Orders completed before invoice numbers existed get theirs now.
      if (!invoiceNumber) {
        const [numbered] = await db.update(orders)
          .set({ invoiceNumber: sql`${String(row.completedAt.getUTCFullYear())}::text || '-' || nextval('invoice_numbers')` })
          .where(and(eq(orders.id, row.id), isNull(orders.invoiceNumber))).returning({ invoiceNumber: orders.invoiceNumber });
        invoiceNumber = numbered?.invoiceNumber ?? (await ownOrder(userId, orderId)).invoiceNumber;
      }
      return { order: row, invoiceNumber: invoiceNumber ?? row.id };
    },
  };
}
