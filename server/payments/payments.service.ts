import { requireMember, type Actor } from '../actor.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { safeReturnPath } from '#common/schemas.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { TestProvider } from '../infra/payments/test-provider.ts';
import type { Site } from '../settings/settings.service.ts';
import type { DiscountsService } from './discounts.service.ts';
import type { PaymentProviders } from './providers.ts';
import { createCatalogue } from './catalogue.ts';
import { createMandates } from './mandates.ts';
import { atProvider, createOrders, type DirectDebitMandate, type PaymentPlan, type PlaceOrder } from './orders.ts';
import { createPaymentStatus } from './payment-status.ts';
import { createTestPayments } from './test-payments.ts';

export type { TestPaymentsMode } from './test-payments.ts';

/** Where a payment's status page continues to: a path on this site, checked again here, whoever calls (else 400). */
function requireReturnPath(returnTo: string | undefined) {
  if (returnTo !== undefined && safeReturnPath(returnTo) === null) throw new AppError(400, 'return_path_invalid');
}

/**
 * Buying credits, one service over its parts: the bundles and methods a payer sees (catalogue.ts), placing orders
 * and opening their payments (orders.ts), applying what the provider says of a payment (payment-status.ts), stored
 * mandates for repeat orders (mandates.ts) and simulated payments (test-payments.ts). Every order is priced in the
 * member's currency (their profile's country's), offered the methods of their country, and paid back to their
 * site's origin: nothing of it comes from the caller.
 */
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
  discounts: DiscountsService;
  /** The actor's site (its countries, message credits, free messages) and its canonical origin, where payers return to. */
  site: (siteId: number) => Promise<Site>;
  origin: (site: Pick<Site, 'domain'>) => string;
  /** The look-ups of discount codes, which codes in the credits page's link count against too. */
  discountCodeLimit?: RateLimiter;
}) {
  const { db, providers } = deps;
  const mandates = createMandates({ db, clock: deps.clock, providers });
  const status = createPaymentStatus({ db, clock: deps.clock, providers, events: deps.events, mandates, discounts: deps.discounts });
  const placing = createOrders({ db, clock: deps.clock, providers, discounts: deps.discounts, status });
  const tests = createTestPayments({
    db, providers, status, testCheckouts: deps.testCheckouts, allowTestPaymentsOnPublic: deps.allowTestPaymentsOnPublic,
    isPublicDeployment: deps.isPublicDeployment,
  });
  const catalogue = createCatalogue({ db, providers, site: deps.site, discounts: deps.discounts, discountCodeLimit: deps.discountCodeLimit });

  /** A member's order as their site places it: their currency and country, their site's provider and origin. */
  async function orderFor(actor: Actor) {
    const member = requireMember(actor);
    const [payer, site] = await Promise.all([catalogue.payer(member, { visitorCountry: null }), deps.site(member.siteId)]);
    return { userId: member.userId, siteId: member.siteId, currency: payer.currency, country: payer.country ?? '', baseUrl: deps.origin(site) };
  }

  /** Places the order, then applies at once what the provider knows (a charge on a mandate is decided without the payer). */
  async function placeAndSync(input: PlaceOrder, sp: Awaited<ReturnType<PaymentProviders['forSite']>>, plan: PaymentPlan, country: string) {
    const placed = await placing.placeOrder(input, sp, plan, country);
    if (placed.order.payment_id && placed.order.status === 'open') {
      await status.sync(sp.provider.name, placed.order.payment_id).catch(() => null);
      const [fresh] = await db.select().from(orders).where(eq(orders.id, placed.order.id));
      return placing.orderWithPayment(fresh);
    }
    return placed;
  }

  return {
    acceptsWebhooks: tests.acceptsWebhooks,
    testPayments: tests.testPayments,
    testCheckout: tests.testCheckout,
    decideTestCheckout: tests.decideTestCheckout,
    payer: catalogue.payer,
    packages: catalogue.packages,
    methods: catalogue.methods,
    catalogue: catalogue.catalogue,
    purchase: catalogue.purchase,
    mandates: mandates.mandates,
    hasRepeatOrder: mandates.hasRepeatOrder,
    revokeMandate: mandates.revokeMandate,
    sync: status.sync,

    /**
     * Creates an order and its payment at the site's provider. A retried request (same key, same package
     * and method) returns the first order; the same key with another package or method is refused.
     * Retries wait for the first request under a lock on (member, key). `recurring`: the payment is the
     * first of a sequence and leaves a mandate for repeat orders.
     */
    async createOrder(actor: Actor, input: {
      packageId: number; paymentmethod: string; idempotencyKey: string; recurring?: boolean;
      /** A code the member brought; `expectedAmount`: the price they saw (a different price is refused). */
      discountCode?: string | null; expectedAmount?: number;
      /** The member agreed that delivery starts at once and their right of withdrawal lapses (EU); no order without it. */
      withdrawalConsent: boolean;
      /** Where the payment's status page continues to: a path on this site (checked again here, whoever calls). */
      returnTo?: string;
    }) {
      requireMember(actor);
      if (input.withdrawalConsent !== true) throw new AppError(400, 'withdrawal_consent_required');
      requireReturnPath(input.returnTo);
      const { siteId, country, ...payer } = await orderFor(actor);
      // Simulated payments on a public origin would hand out credits for nothing.
      if ((await tests.testPayments(siteId)) === 'refused') throw new AppError(503, 'payments_unavailable');
      const sp = await providers.forSite(siteId);
      return placing.placeOrder({ ...input, ...payer }, sp, { sequenceType: input.recurring ? 'first' : 'oneoff' }, country);
    },

    /**
     * One click: buys a bundle on a stored valid mandate (no checkout); the status page shows the outcome.
     * Every repeat order is a new contract, so the withdrawal consent is required and recorded each time.
     */
    async repeatOrder(actor: Actor, input: { packageId: number; mandateId: number; idempotencyKey: string; withdrawalConsent: boolean }) {
      const { userId } = requireMember(actor);
      if (input.withdrawalConsent !== true) throw new AppError(400, 'withdrawal_consent_required');
      const mandate = await mandates.owned(userId, input.mandateId);
      const sp = await providers.forAccount(mandate.accountId);
      if (sp.provider.name === 'test' && (await tests.testPayments()) === 'refused') throw new AppError(503, 'payments_unavailable');
      // The provider decides whether the mandate still holds (the payer may have revoked it at the bank).
      const current = await atProvider(() => sp.provider.getMandate(mandate.customerId, mandate.mandateId));
      if (!current || current.status !== 'valid') {
        await mandates.markInvalid(mandate.id, current?.status);
        throw new AppError(409, 'mandate_invalid');
      }
      const { siteId: _site, country: _country, ...payer } = await orderFor(actor);
      return placeAndSync({ ...input, ...payer, paymentmethod: mandate.method }, sp, { sequenceType: 'recurring', mandate }, '');
    },

    /**
     * A bundle paid by SEPA direct debit on the mandate the member signed on /directdebit (after the SMS code):
     * the order, a mandate at the site's provider and one charge on it. The charge is pending until the
     * provider reports it paid (webhook); the credits come then, once. The same key returns the same order.
     */
    async directDebitOrder(actor: Actor, input: {
      packageId: number; idempotencyKey: string; discountCode?: string | null; expectedAmount?: number; mandate: DirectDebitMandate;
      /** Where the payment's status page continues to: a path on this site, as for createOrder. */
      returnTo?: string;
    }) {
      requireReturnPath(input.returnTo);
      const { siteId, country, ...payer } = await orderFor(actor);
      if ((await tests.testPayments(siteId)) === 'refused') throw new AppError(503, 'payments_unavailable');
      const sp = await providers.forSite(siteId);
      return placeAndSync(
        { ...input, ...payer, paymentmethod: 'directdebit', withdrawalConsent: true }, sp, { sequenceType: 'directdebit', mandate: input.mandate }, country,
      );
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

    /** The member's own order; an open or pending one is refreshed from the provider first. */
    async order(actor: Actor, orderId: string) {
      const { userId } = requireMember(actor);
      const [row] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      if (!row) throw notFound();
      if (row.status === 'open' || row.status === 'pending') {
        const payment = await placing.latestPayment(row.id);
        // The status page keeps working while the provider is down: it shows what is known.
        if (payment) await status.sync(payment.provider, payment.providerRef).catch(() => null);
        const [fresh] = await db.select().from(orders).where(eq(orders.id, orderId));
        return placing.orderWithPayment(fresh);
      }
      return placing.orderWithPayment(row);
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
