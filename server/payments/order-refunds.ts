import { and, desc, eq } from 'drizzle-orm';
import { moneyUnits, refundCreditShare } from '#common/refunds.ts';
import { can, requireRoleSomewhere, type Actor } from '../actor.ts';
import type { Db, Tx } from '../db/client.ts';
import { orderRefunds, orders, payments, sites, users } from '../db/schema.ts';
import { takeBackCredits } from '../credits/ledger.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from '../staff/audit.ts';
import type { PaymentProviders } from './providers.ts';

const DAY_MS = 86_400_000;

export interface RefundInput {
  reason: string;
  /** Cents to return; null or absent: all that is left. */
  amountCents?: number | null;
  /** The form's or the command's key: the same key on the same order answers the first refund. */
  idempotencyKey: string;
}

/** What a refund would do, for the console's confirmation: nothing is booked. */
export interface RefundPreview {
  orderId: string; memberId: number; currency: string; amountCents: number; refundedCents: number;
  /** The part to refund and the credits it takes back (the share, as far as the balance holds it now). */
  partCents: number; credits: number;
}

type Located = { order: typeof orders.$inferSelect; refundDays: number; siteId: number };

/** A refund's amount, checked before anything is looked up. */
function checkAmount(amountCents: number | null | undefined) {
  if (amountCents === null || amountCents === undefined) return;
  if (!Number.isSafeInteger(amountCents)) throw new AppError(400, 'refund_amount_not_cents');
  if (amountCents <= 0) throw new AppError(400, 'refund_amount_not_positive');
}

/** The part of the order to refund now, or the refusal: unpaid, refunded already, too late, more than is left. */
function plan({ order, refundDays }: Located, requested: number | null, now: Date) {
  if (order.status !== 'completed' || !order.completedAt) throw new AppError(409, 'order_not_refundable');
  const remaining = order.amountCents - order.refundedCents;
  if (order.refundedAt || remaining <= 0) throw new AppError(409, 'order_already_refunded');
  if (now.getTime() - order.completedAt.getTime() > refundDays * DAY_MS) throw new AppError(409, 'refund_window_passed', { days: refundDays });
  const part = requested ?? remaining;
  if (part > remaining) throw new AppError(409, 'refund_amount_exceeds_remaining', { remaining: `${moneyUnits(remaining)} ${order.currency}` });
  return { part, credits: refundCreditShare(order, part) };
}

/**
 * Refunds of completed orders, whole or in parts (decisions 032 and 066), for finance staff of the member's site, the
 * command line and the system. Each part is one transaction: the order's refunded amount, a refund row, a 'refund'
 * ledger row taking back the part's share of the credits, the audit row, and last the provider returning the money.
 */
export function createOrderRefunds(deps: { db: Db; clock: Clock; providers: PaymentProviders; events: EventBus; audit: AuditLog }) {
  const { db, clock, providers } = deps;

  /** The order with its site's refund period; an order on a site the staff member does not reach is unknown. */
  async function locate(q: Db | Tx, actor: Actor, orderId: string, lock: boolean): Promise<Located> {
    const query = q.select({ order: orders, refundDays: sites.refundDays, siteId: sites.id }).from(orders)
      .innerJoin(users, eq(users.id, orders.userId)).innerJoin(sites, eq(sites.id, users.siteId)).where(eq(orders.id, orderId));
    const [row] = lock ? await query.for('update', { of: orders }) : await query;
    if (!row || (actor.kind === 'staff' && !can(actor, 'finance', row.siteId))) throw notFound();
    return row;
  }

  function checkReason(reason: string): string {
    const text = reason.trim();
    if (!text || text.length > 500) throw new AppError(400, 'refund_reason_required');
    return text;
  }

  return {
    /** What refunding `amountCents` (null: all that is left) of the order would do, refused as the refund would be. */
    async refundPreview(actor: Actor, orderId: string, amountCents: number | null): Promise<RefundPreview> {
      requireRoleSomewhere(actor, 'finance');
      checkAmount(amountCents);
      const located = await locate(db, actor, orderId, false);
      const { part, credits } = plan(located, amountCents, clock());
      const { order } = located;
      const [member] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, order.userId));
      return {
        orderId: order.id, memberId: order.userId, currency: order.currency, amountCents: order.amountCents, refundedCents: order.refundedCents,
        partCents: part, credits: Math.min(credits, member?.credits ?? 0),
      };
    },

    async refundOrder(actor: Actor, orderId: string, input: RefundInput, { ip = null }: { ip?: string | null } = {}) {
      const by = requireRoleSomewhere(actor, 'finance');
      const text = checkReason(input.reason);
      checkAmount(input.amountCents);
      const key = input.idempotencyKey;
      if (typeof key !== 'string' || key.length < 8 || key.length > 100) throw new AppError(400, 'invalid_input');
      // The provider that took the payment (the site's account at the time) returns the money; looked up first,
      // outside the transaction, which holds the only connection on the embedded database.
      const [paid] = await db.select().from(payments)
        .where(and(eq(payments.orderId, orderId), eq(payments.status, 'paid'))).orderBy(desc(payments.id)).limit(1);
      const refunder = paid ? (await providers.forAccount(paid.accountId)).provider : null;
      const result = await db.transaction(async (tx) => {
        const located = await locate(tx, actor, orderId, true);
        const { order } = located;
        // A resent form or a retried command: the order's row lock made it wait for the first, whose refund it answers.
        const [done] = await tx.select().from(orderRefunds).where(and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.idempotencyKey, key)));
        if (done) return { order, refund: done };
        const now = clock();
        const { part, credits } = plan(located, input.amountCents ?? null, now);
        const refundedCents = order.refundedCents + part;
        const whole = refundedCents === order.amountCents;
        const [updated] = await tx.update(orders).set({ refundedCents, refundedAt: whole ? now : null, refundReason: text })
          .where(eq(orders.id, order.id)).returning();
        const [row] = await tx.insert(orderRefunds)
          .values({ orderId: order.id, amountCents: part, creditsTaken: 0, reason: text, idempotencyKey: key, createdAt: now }).returning();
        // Each part has its own ledger row, `<order>/<refund>`: the ledger's (reason, reference) is unique.
        const taken = await takeBackCredits(tx, order.userId, credits, 'refund', `${order.id}/${row.id}`);
        const [refund] = await tx.update(orderRefunds).set({ creditsTaken: taken }).where(eq(orderRefunds.id, row.id)).returning();
        await deps.audit.record(tx, {
          actor: by, role: 'finance', action: 'order.refund', objectType: 'order', objectId: order.id, memberId: order.userId, ip,
          before: { refunded_cents: order.refundedCents, refunded: false },
          after: { refunded_cents: refundedCents, refunded: whole, amount_cents: part, order_amount_cents: order.amountCents, credits_taken: taken, reason: text },
        });
        // The money goes back last: a provider that refuses rolls the booking back, and the refund can be tried again.
        if (paid && refunder?.refundPayment && paid.provider === refunder.name) await refunder.refundPayment(paid.providerRef, part, order.currency);
        return { order: updated, refund };
      });
      if (result.refund.creditsTaken > 0) deps.events.emit('credits.changed', { userId: result.order.userId });
      return result;
    },
  };
}
