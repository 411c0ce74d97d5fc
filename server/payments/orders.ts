import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Order } from '#common/api-types.ts';
import type { Db, Tx } from '../db/client.ts';
import { creditPackagePrices, creditPackages, orders, paymentCustomers, paymentMandates, payments, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ProviderUnavailableError, type SequenceType } from '../infra/payments/provider.ts';
import { DiscountHeldError, type DiscountsService } from './discounts.service.ts';
import type { PaymentProviders, SiteProvider } from './providers.ts';
import type { PaymentStatus } from './payment-status.ts';

type OrderRow = typeof orders.$inferSelect;
type MandateRow = typeof paymentMandates.$inferSelect;

function toOrder(row: OrderRow, paymentRef: string | null): Order {
  return {
    id: row.id, credits: row.credits, amount: row.amountCents, currency: row.currency,
    paymentmethod: row.paymentmethod, status: row.status, payment_id: paymentRef,
    original_amount: row.originalAmountCents, discount_code: row.discountCode, discount_percentage: row.discountBp === null ? null : row.discountBp / 100,
  };
}

/** The provider did not answer: the order stays open and a retry with the same key opens its payment. */
export async function atProvider<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ProviderUnavailableError) throw new AppError(502, 'payment_provider_unavailable');
    throw error;
  }
}

/** A SEPA mandate the member signed on /directdebit: charged at once as a recurring payment on it. */
export interface DirectDebitMandate {
  consumerName: string;
  consumerAccount: string;
  /** YYYY-MM-DD. */
  signatureDate: string;
}

/** How an order's payment is made: once, as the first of a recurring sequence (a mandate), or on a mandate. */
export type PaymentPlan = { sequenceType: 'oneoff' | 'first' } | { sequenceType: 'recurring'; mandate: MandateRow }
  | { sequenceType: 'directdebit'; mandate: DirectDebitMandate };

/** What an order is placed with: the member's bundle and method, priced in their currency, paid from their site's origin. */
export interface PlaceOrder {
  userId: number; packageId: number; paymentmethod: string; currency: string; idempotencyKey: string; baseUrl: string;
  discountCode?: string | null; expectedAmount?: number; withdrawalConsent?: boolean;
  /** A path on this site that the payment's status page continues to (the conversation the purchase began in). */
  returnTo?: string;
}

/** Placing an order and opening its payment at the provider; reading an order with its latest payment. */
export function createOrders(deps: {
  db: Db; clock: Clock; providers: PaymentProviders; discounts: Pick<DiscountsService, 'priceOrder'>; status: Pick<PaymentStatus, 'sync'>;
}) {
  const { db, clock, providers } = deps;

  async function latestPayment(orderId: string, q: Db | Tx = db) {
    const [p] = await q.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.id));
    return p ?? null;
  }

  async function orderWithPayment(row: OrderRow, q: Db | Tx = db) {
    const payment = await latestPayment(row.id, q);
    return { order: toOrder(row, payment?.providerRef ?? null), checkout_url: payment?.checkoutUrl ?? null };
  }

  /** The member's customer at the provider account, made once (first payments need one). */
  async function customerFor(tx: Tx, userId: number, sp: SiteProvider): Promise<string> {
    const accountKey = sp.accountId ?? 0;
    const where = and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, sp.provider.name), eq(paymentCustomers.accountKey, accountKey));
    const [held] = await tx.select().from(paymentCustomers).where(where);
    if (held) return held.customerId;
    const [u] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const customerId = await atProvider(() => sp.provider.createCustomer({ name: `member ${userId}`, email: u.email, userId }));
    await tx.insert(paymentCustomers).values({ userId, provider: sp.provider.name, accountKey, customerId, createdAt: clock() });
    return customerId;
  }

  /**
   * Opens the provider's payment for an open order that has none, under the order's lock: concurrent
   * retries wait and find the payment the first one made. A provider that fails leaves the order open and
   * without a payment; the next retry with the same key tries again.
   */
  async function openPayment(row: OrderRow, sp: SiteProvider, plan: PaymentPlan, baseUrl: string, lockKey: string, returnTo?: string) {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
      const [fresh] = await tx.select().from(orders).where(eq(orders.id, row.id));
      const found = await orderWithPayment(fresh, tx);
      if (found.order.payment_id !== null || fresh.status !== 'open') return found;
      const customerId = plan.sequenceType === 'first' || plan.sequenceType === 'directdebit' ? await customerFor(tx, fresh.userId, sp)
        : plan.sequenceType === 'recurring' ? plan.mandate.customerId : undefined;
      let mandateId = plan.sequenceType === 'recurring' ? plan.mandate.mandateId : undefined;
      if (plan.sequenceType === 'directdebit') {
        // The mandate the member signed on our page, then one charge on it. Both are keyed by the order, so a
        // retry after a lost answer gets the same mandate and the same payment back.
        const mandate = await atProvider(() => sp.provider.createMandate(customerId!, {
          ...plan.mandate, mandateReference: `AMORA-${fresh.id.slice(4)}`, idempotencyKey: `${fresh.id}:mandate`,
        }, tx));
        if (mandate.status === 'invalid') throw new AppError(422, 'iban_invalid');
        mandateId = mandate.id;
      }
      const sequenceType = plan.sequenceType === 'directdebit' ? 'recurring' : plan.sequenceType;
      const created = await atProvider(() => sp.provider.createPayment({
        orderId: fresh.id, amountCents: fresh.amountCents, currency: fresh.currency, description: `${fresh.credits} credits`,
        method: plan.sequenceType === 'recurring' ? '' : fresh.paymentmethod, redirectUrl: `${baseUrl}/credits/${fresh.id}${returnTo ? `?return=${encodeURIComponent(returnTo)}` : ''}`,
        webhookUrl: `${baseUrl}/api/payment-webhook.php?provider=${sp.provider.name}`,
        sequenceType, customerId, mandateId,
      }, tx));
      await tx.insert(payments).values({
        orderId: fresh.id, provider: sp.provider.name, providerRef: created.ref, checkoutUrl: created.checkoutUrl,
        accountId: sp.accountId, sequenceType, createdAt: clock(), updatedAt: clock(),
      });
      return { order: toOrder(fresh, created.ref), checkout_url: created.checkoutUrl };
    });
  }

  /** Whether the site's provider offers the method for this amount and country (a provider that is down: 502). */
  async function requireMethod(sp: SiteProvider, query: { amountCents: number; currency: string; country: string; sequenceType: SequenceType }, method: string) {
    const offered = await atProvider(() => providers.methods(sp, query));
    if (!offered.includes(method)) throw new AppError(422, 'payment_method_unavailable');
  }

  /**
   * Cancels an open order's payment at the provider, for a newer checkout that needs its once-per-user code.
   * Only when the provider confirms: a payment it keeps can still be paid, so its order keeps the code. An
   * order without a payment yet is being placed right now (a concurrent click) and is left alone.
   */
  async function cancelAbandoned(orderId: string): Promise<boolean> {
    const [held] = await db.select().from(orders).where(eq(orders.id, orderId));
    const payment = held?.status === 'open' ? await latestPayment(held.id) : null;
    if (!payment) return false;
    const sp = await providers.forAccount(payment.accountId);
    if (!sp.provider.cancelPayment || sp.provider.name !== payment.provider) return false;
    const cancelled = await sp.provider.cancelPayment(payment.providerRef).catch(() => false);
    // The provider's word decides (paid meanwhile: completed, and the code is used).
    return cancelled && (await deps.status.sync(payment.provider, payment.providerRef)) === 'cancelled';
  }

  return {
    latestPayment,
    orderWithPayment,

    /**
     * Creates an order (or finds the one of a retried request) and then its payment at the provider. The
     * order commits first: a remote provider is never called while the order is uncommitted, and a
     * provider that fails leaves an open order that the retry (same key) pays. `country`: the payer's, whose
     * methods the provider offers.
     */
    async placeOrder(input: PlaceOrder, sp: SiteProvider, plan: PaymentPlan, country: string) {
      const lockKey = `order:${input.userId}:${input.idempotencyKey}`;
      const insert = () => db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
        const [existing] = await tx.select().from(orders)
          .where(and(eq(orders.userId, input.userId), eq(orders.idempotencyKey, input.idempotencyKey)));
        if (existing) {
          if (existing.packageId !== input.packageId || existing.paymentmethod !== input.paymentmethod) {
            throw new AppError(422, 'idempotency_key_reused');
          }
          return { row: existing, isNew: false };
        }
        const [pkg] = await tx
          .select({ credits: creditPackages.credits, amount: creditPackagePrices.amountCents })
          .from(creditPackages)
          .innerJoin(creditPackagePrices, and(eq(creditPackagePrices.packageId, creditPackages.id), eq(creditPackagePrices.currency, input.currency)))
          .where(and(eq(creditPackages.id, input.packageId), eq(creditPackages.active, true)));
        if (!pkg) throw new AppError(404, 'package_not_found');
        // The same rule as the credits page (discounts.priceOrder), so the price shown is the price charged.
        const price = await deps.discounts.priceOrder(tx, { userId: input.userId, amount: pkg.amount, currency: input.currency, code: input.discountCode });
        if (input.expectedAmount !== undefined && input.expectedAmount !== price.amountCents) throw new AppError(409, 'price_changed');
        if (plan.sequenceType !== 'recurring') {
          // Direct debit is offered for charges on a mandate (Mollie: sequenceType recurring, euros only).
          const sequenceType = plan.sequenceType === 'directdebit' ? 'recurring' : plan.sequenceType;
          await requireMethod(sp, { amountCents: price.amountCents, currency: input.currency, country, sequenceType }, input.paymentmethod);
        }
        const [row] = await tx.insert(orders).values({
          id: `ord_${randomBytes(12).toString('base64url')}`, userId: input.userId, packageId: input.packageId, credits: pkg.credits,
          ...price, currency: input.currency, paymentmethod: input.paymentmethod,
          idempotencyKey: input.idempotencyKey, createdAt: clock(), withdrawalConsentAt: input.withdrawalConsent ? clock() : null,
        }).returning();
        return { row, isNew: true };
      }).catch((error: unknown) => {
        // Another order took the once-per-user code between the check and the insert (discounts.hold).
        if (isUniqueViolation(error, 'orders_discount_hold')) throw new AppError(409, 'discount_in_use');
        throw error;
      });
      // The member's discount is on an older checkout of theirs: a new checkout replaces an open one the provider
      // cancels (the member went back and chose again); one under way (pending, or not cancellable) keeps it.
      const placed = await insert().catch(async (error: unknown) => {
        if (!(error instanceof DiscountHeldError) || !(await cancelAbandoned(error.orderId))) throw error;
        return insert();
      });
      if (!placed.isNew) {
        const found = await orderWithPayment(placed.row);
        if (found.order.payment_id !== null || placed.row.status !== 'open') return found;
      }
      return openPayment(placed.row, sp, plan, input.baseUrl, lockKey, input.returnTo);
    },
  };
}
