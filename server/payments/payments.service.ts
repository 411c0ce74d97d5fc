import { randomBytes } from 'node:crypto';
import { requireMember, type Actor } from '../actor.ts';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { CreditPackage, Order } from '#common/api-types.ts';
import type { Db, Tx } from '../db/client.ts';
import { creditPackagePrices, creditPackages, invoiceNumbers, orders, paymentCustomers, paymentMandates, payments, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ProviderUnavailableError, type ProviderStatus, type SequenceType } from '../infra/payments/provider.ts';
import { addCredits } from '../credits/ledger.ts';
import type { TestOutcome, TestProvider } from '../infra/payments/test-provider.ts';
import { DiscountHeldError, type DiscountsService } from './discounts.service.ts';
import type { PaymentProviders, SiteProvider } from './providers.ts';

type OrderRow = typeof orders.$inferSelect;
type OrderStatus = OrderRow['status'];
type MandateRow = typeof paymentMandates.$inferSelect;

const STATUS_MAP: Record<ProviderStatus, OrderStatus> = {
  open: 'open', pending: 'pending', authorized: 'pending', paid: 'completed',
  canceled: 'cancelled', expired: 'failed', failed: 'failed',
};

function toOrder(row: OrderRow, paymentRef: string | null): Order {
  return {
    id: row.id, credits: row.credits, amount: row.amountCents, currency: row.currency,
    paymentmethod: row.paymentmethod, status: row.status, payment_id: paymentRef,
    original_amount: row.originalAmountCents, discount_code: row.discountCode, discount_percentage: row.discountBp === null ? null : row.discountBp / 100,
  };
}

/** A stored mandate as the member sees it: masked details only. */
export function toMandate(row: MandateRow) {
  return { id: row.id, method: row.method, details: row.details, status: row.status, created_at: row.createdAt.toISOString() };
}

/** The provider did not answer: the order stays open and a retry with the same key opens its payment. */
async function atProvider<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ProviderUnavailableError) throw new AppError(502, 'payment_provider_unavailable');
    throw error;
  }
}

/**
 * Simulated payments: 'local' on a developer's machine, 'public' when the operator allowed them on a public
 * origin (ALLOW_TEST_PAYMENTS), 'refused' on a public origin otherwise; 'none' when a real provider is used.
 */
export type TestPaymentsMode = 'none' | 'local' | 'public' | 'refused';

/** How an order's payment is made: once, as the first of a recurring sequence (a mandate), or on a mandate. */
type PaymentPlan = { sequenceType: 'oneoff' | 'first' } | { sequenceType: 'recurring'; mandate: MandateRow }
  | { sequenceType: 'directdebit'; mandate: DirectDebitMandate };

/** A SEPA mandate the member signed on /directdebit: charged at once as a recurring payment on it. */
export interface DirectDebitMandate {
  consumerName: string;
  consumerAccount: string;
  /** YYYY-MM-DD. */
  signatureDate: string;
}

export function createPaymentsService(deps: {
  db: Db;
  clock: Clock;
  /** Which provider (and credentials) each site uses. */
  providers: PaymentProviders;
  /** The test provider's checkouts. */
  testCheckouts?: TestProvider;
  /** ALLOW_TEST_PAYMENTS: the operator's explicit consent to simulated payments on a public origin. */
  allowTestPaymentsOnPublic?: boolean;
  isPublicDeployment: () => Promise<boolean>;
  events: EventBus;
  /** Prices an order with the member's active discount and books the code's use on completion. */
  discounts?: DiscountsService;
}) {
  const { db, clock, providers, testCheckouts } = deps;

  async function latestPayment(orderId: string, q: Db | Tx = db) {
    const [p] = await q.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.id));
    return p ?? null;
  }

  async function orderWithPayment(row: OrderRow, q: Db | Tx = db) {
    const payment = await latestPayment(row.id, q);
    return { order: toOrder(row, payment?.providerRef ?? null), checkout_url: payment?.checkoutUrl ?? null };
  }

  async function siteOf(userId: number): Promise<number> {
    const [u] = await db.select({ siteId: users.siteId }).from(users).where(eq(users.id, userId));
    if (!u) throw notFound();
    return u.siteId;
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
  async function openPayment(row: OrderRow, sp: SiteProvider, plan: PaymentPlan, baseUrl: string, lockKey: string) {
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
        method: plan.sequenceType === 'recurring' ? '' : fresh.paymentmethod, redirectUrl: `${baseUrl}/credits/${fresh.id}`,
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

  /** Whether the site's provider offers the method for this amount and country (a provider that is down: 502). */
  async function requireMethod(sp: SiteProvider, query: { amountCents: number; currency: string; country: string; sequenceType: SequenceType }, method: string) {
    const offered = await atProvider(() => providers.methods(sp, query));
    if (!offered.includes(method)) throw new AppError(422, 'payment_method_unavailable');
  }

  /**
   * Creates an order (or finds the one of a retried request) and then its payment at the provider. The
   * order commits first: a remote provider is never called while the order is uncommitted, and a
   * provider that fails leaves an open order that the retry (same key) pays.
   */
  async function placeOrder(input: {
    userId: number; packageId: number; paymentmethod: string; currency: string; idempotencyKey: string; baseUrl: string;
    discountCode?: string | null; expectedAmount?: number; withdrawalConsent?: boolean;
  }, sp: SiteProvider, plan: PaymentPlan, country: string) {
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
      const price = deps.discounts
        ? await deps.discounts.priceOrder(tx, { userId: input.userId, amount: pkg.amount, currency: input.currency, code: input.discountCode })
        : { amountCents: pkg.amount };
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
    return openPayment(placed.row, sp, plan, input.baseUrl, lockKey);
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
    return cancelled && (await service.sync(payment.provider, payment.providerRef)) === 'cancelled';
  }

  /** Stores (or refreshes) the mandate a paid first payment created, with masked details only. */
  async function storeMandate(userId: number, sp: SiteProvider, customerId: string, mandateId: string) {
    const mandate = await sp.provider.getMandate(customerId, mandateId).catch(() => null);
    if (!mandate) return;
    await db.insert(paymentMandates).values({
      userId, provider: sp.provider.name, accountId: sp.accountId, customerId, mandateId,
      method: mandate.method, details: mandate.details, status: mandate.status, createdAt: clock(), updatedAt: clock(),
    }).onConflictDoUpdate({
      target: [paymentMandates.provider, paymentMandates.mandateId],
      set: { status: sql`case when ${paymentMandates.status} = 'revoked' then 'revoked' else excluded.status end`, updatedAt: clock() },
    });
  }

  const service = {
    /** Whether `/api/payment-webhook.php?provider=` is an address this deployment answers: a known provider, and simulated payments only where they may run. */
    async acceptsWebhooks(providerName: string): Promise<boolean> {
      if (!providers.isKnown(providerName)) return false;
      return !(testCheckouts && providerName === testCheckouts.name && (await service.testPayments()) === 'refused');
    },

    /** Simulated payments for a site (or, without one, for the deployment's default provider). */
    async testPayments(siteId?: number): Promise<TestPaymentsMode> {
      if (!testCheckouts) return 'none';
      if (siteId !== undefined && (await providers.forSite(siteId)).provider.name !== testCheckouts.name) return 'none';
      if (!(await deps.isPublicDeployment())) return 'local';
      return deps.allowTestPaymentsOnPublic ? 'public' : 'refused';
    },

    /** The test provider's hosted checkout page, for the member who placed the order. */
    async testCheckout(actor: Actor, ref: string) {
      return (await ownTestCheckout(requireMember(actor).userId, ref)).checkout;
    },

    /** The payer's choice on the test checkout (only the order's owner); returns where the payer goes next. */
    async decideTestCheckout(actor: Actor, ref: string, outcome: TestOutcome): Promise<string> {
      const { checkouts, checkout } = await ownTestCheckout(requireMember(actor).userId, ref);
      const decided = await checkouts.decide(checkout.id, outcome);
      if (!decided) throw notFound();
      await service.sync(checkouts.name, checkout.id);
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
     * The methods the site's provider offers the member, per bundle (methods depend on amount, currency
     * and country). `recurring`: the methods that can start a mandate for repeat orders.
     */
    async methods(siteId: number, input: { currency: string; country: string }) {
      const sp = await providers.forSite(siteId);
      const packages = await service.packages(input.currency);
      const forSequence = async (sequenceType: 'oneoff' | 'first') => {
        const byPackage = await Promise.all(packages.map(async (p) => ({
          id: p.id, methods: await atProvider(() => providers.methods(sp, { amountCents: p.amount, currency: input.currency, country: input.country, sequenceType })),
        })));
        const all = [...new Set(byPackage.flatMap((p) => p.methods))];
        return all.map((id) => ({ id, package_ids: byPackage.filter((p) => p.methods.includes(id)).map((p) => p.id) }));
      };
      const [methods, recurring] = await Promise.all([forSequence('oneoff'), forSequence('first')]);
      return { provider: sp.provider.name, methods, recurring };
    },

    /**
     * Creates an order and its payment at the site's provider. A retried request (same key, same package
     * and method) returns the first order; the same key with another package or method is refused.
     * Retries wait for the first request under a lock on (member, key). `recurring`: the payment is the
     * first of a sequence and leaves a mandate for repeat orders.
     */
    async createOrder(actor: Actor, input: {
      packageId: number; paymentmethod: string; currency: string; idempotencyKey: string; baseUrl: string;
      country?: string; recurring?: boolean;
      /** A code the member brought; `expectedAmount`: the price they saw (a different price is refused). */
      discountCode?: string | null; expectedAmount?: number;
      /** The member agreed that delivery starts at once and their right of withdrawal lapses (EU); no order without it. */
      withdrawalConsent: boolean;
    }) {
      const { userId } = requireMember(actor);
      if (input.withdrawalConsent !== true) throw new AppError(400, 'withdrawal_consent_required');
      const siteId = await siteOf(userId);
      // Simulated payments on a public origin would hand out credits for nothing.
      if ((await service.testPayments(siteId)) === 'refused') throw new AppError(503, 'payments_unavailable');
      const sp = await providers.forSite(siteId);
      return placeOrder({ ...input, userId }, sp, { sequenceType: input.recurring ? 'first' : 'oneoff' }, input.country ?? 'NL');
    },

    /**
     * One click: buys a bundle on a stored valid mandate (no checkout); the status page shows the outcome.
     * Every repeat order is a new contract, so the withdrawal consent is required and recorded each time.
     */
    async repeatOrder(actor: Actor, input: {
      packageId: number; mandateId: number; currency: string; idempotencyKey: string; baseUrl: string; withdrawalConsent: boolean;
    }) {
      const { userId } = requireMember(actor);
      if (input.withdrawalConsent !== true) throw new AppError(400, 'withdrawal_consent_required');
      const [mandate] = await db.select().from(paymentMandates)
        .where(and(eq(paymentMandates.id, input.mandateId), eq(paymentMandates.userId, userId)));
      if (!mandate || mandate.status === 'revoked') throw new AppError(404, 'mandate_not_found');
      const sp = await providers.forAccount(mandate.accountId);
      if (sp.provider.name === 'test' && ['refused'].includes(await service.testPayments())) throw new AppError(503, 'payments_unavailable');
      // The provider decides whether the mandate still holds (the payer may have revoked it at the bank).
      const current = await atProvider(() => sp.provider.getMandate(mandate.customerId, mandate.mandateId));
      if (!current || current.status !== 'valid') {
        await db.update(paymentMandates).set({ status: current?.status ?? 'invalid', updatedAt: clock() }).where(eq(paymentMandates.id, mandate.id));
        throw new AppError(409, 'mandate_invalid');
      }
      const placed = await placeOrder({ ...input, userId, paymentmethod: mandate.method }, sp, { sequenceType: 'recurring', mandate }, '');
      // A charge on a mandate is decided without the payer: apply what the provider knows now.
      if (placed.order.payment_id && placed.order.status === 'open') {
        await service.sync(sp.provider.name, placed.order.payment_id).catch(() => null);
        const [fresh] = await db.select().from(orders).where(eq(orders.id, placed.order.id));
        return orderWithPayment(fresh);
      }
      return placed;
    },

    /**
     * A bundle paid by SEPA direct debit on the mandate the member signed on /directdebit (after the SMS code):
     * the order, a mandate at the site's provider and one charge on it. The charge is pending until the
     * provider reports it paid (webhook); the credits come then, once. The same key returns the same order.
     */
    async directDebitOrder(actor: Actor, input: {
      packageId: number; currency: string; idempotencyKey: string; baseUrl: string; country: string;
      discountCode?: string | null; expectedAmount?: number; mandate: DirectDebitMandate;
    }) {
      const { userId } = requireMember(actor);
      const siteId = await siteOf(userId);
      if ((await service.testPayments(siteId)) === 'refused') throw new AppError(503, 'payments_unavailable');
      const sp = await providers.forSite(siteId);
      const placed = await placeOrder({ ...input, userId, paymentmethod: 'directdebit', withdrawalConsent: true }, sp, { sequenceType: 'directdebit', mandate: input.mandate }, input.country);
      // The provider knows at once whether the debit is under way (pending) or refused.
      if (placed.order.payment_id && placed.order.status === 'open') {
        await service.sync(sp.provider.name, placed.order.payment_id).catch(() => null);
        const [fresh] = await db.select().from(orders).where(eq(orders.id, placed.order.id));
        return orderWithPayment(fresh);
      }
      return placed;
    },

    /** Whether the site's provider can charge this amount by SEPA direct debit on a mandate (a provider that is down: 502). */
    async offersDirectDebit(siteId: number, query: { amountCents: number; currency: string; country: string }): Promise<boolean> {
      const sp = await providers.forSite(siteId);
      const offered = await atProvider(() => providers.methods(sp, { ...query, sequenceType: 'recurring' }));
      return offered.includes('directdebit');
    },

    /** Direct-debit orders of the member since `since` that are not failed or cancelled, in cents (the 30-day limit). */
    async directDebitTotal(actor: Actor, since: Date): Promise<number> {
      const { userId } = requireMember(actor);
      const [row] = await db.select({ total: sql<number>`coalesce(sum(${orders.amountCents}), 0)::int` }).from(orders).where(and(
        eq(orders.userId, userId), eq(orders.paymentmethod, 'directdebit'), inArray(orders.status, ['open', 'pending', 'completed']),
        sql`${orders.createdAt} >= ${since.toISOString()}`,
      ));
      return Number(row?.total ?? 0);
    },

    /** The member's stored mandates that can still be charged or are being set up. */
    async mandates(actor: Actor) {
      const { userId } = requireMember(actor);
      const rows = await db.select().from(paymentMandates)
        .where(and(eq(paymentMandates.userId, userId), inArray(paymentMandates.status, ['valid', 'pending'])))
        .orderBy(desc(paymentMandates.id));
      return rows.map(toMandate);
    },

    /** Whether the member can repeat an order in one click (the navigation links there then). */
    async hasRepeatOrder(actor: Actor): Promise<boolean> {
      const { userId } = requireMember(actor);
      return (await db.$count(paymentMandates, and(eq(paymentMandates.userId, userId), eq(paymentMandates.status, 'valid')))) > 0;
    },

    /** Cancels a stored mandate: revoked at the provider first, then here. */
    async revokeMandate(actor: Actor, id: number): Promise<void> {
      const { userId } = requireMember(actor);
      const [mandate] = await db.select().from(paymentMandates).where(and(eq(paymentMandates.id, id), eq(paymentMandates.userId, userId)));
      if (!mandate || mandate.status === 'revoked') throw new AppError(404, 'mandate_not_found');
      const sp = await providers.forAccount(mandate.accountId);
      await atProvider(() => sp.provider.revokeMandate(mandate.customerId, mandate.mandateId));
      await db.update(paymentMandates).set({ status: 'revoked', updatedAt: clock() }).where(eq(paymentMandates.id, mandate.id));
    },

    /**
     * Asks the provider for the payment's status and applies it. Webhooks and the return page may call
     * this any number of times, in any order: the order moves to completed once, and only that move books
     * the credits (and makes the member premium on their first bundle). A paid first payment stores the
     * mandate it created. Unknown ids (here or at the provider) change nothing and answer null.
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
        await tx.update(payments).set({ status: providerStatus, updatedAt: clock() }).where(eq(payments.id, payment.id));
        if (status === 'completed') {
          const [order] = await tx.update(orders).set({
            status: 'completed', completedAt: clock(),
            invoiceNumber: sql`${String(clock().getUTCFullYear())}::text || '-' || nextval('${sql.raw(invoiceNumbers.seqName ?? '')}')`,
          })
            .where(and(eq(orders.id, payment.orderId), ne(orders.status, 'completed'))).returning();
          if (order) {
            await addCredits(tx, order.userId, order.credits, 'purchase', order.id);
            await deps.discounts?.redeem(tx, order);
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
      if (result === 'completed' && payment.sequenceType === 'first' && remote.customerId && remote.mandateId) {
        const [order] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, payment.orderId));
        await storeMandate(order.userId, sp, remote.customerId, remote.mandateId);
      }
      if (booked !== null) deps.events.emit('credits.changed', { userId: booked });
      return result;
    },

    /** The member's own order; an open or pending one is refreshed from the provider first. */
    async order(actor: Actor, orderId: string) {
      const { userId } = requireMember(actor);
      const [row] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      if (!row) throw notFound();
      if (row.status === 'open' || row.status === 'pending') {
        const payment = await latestPayment(row.id);
        // The status page keeps working while the provider is down: it shows what is known.
        if (payment) await service.sync(payment.provider, payment.providerRef).catch(() => null);
        const [fresh] = await db.select().from(orders).where(eq(orders.id, orderId));
        return orderWithPayment(fresh);
      }
      return orderWithPayment(row);
    },
  };
  return service;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
