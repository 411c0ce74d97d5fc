import { and, eq } from 'drizzle-orm';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { orders, payments } from '../db/schema.ts';
import { notFound } from '../infra/errors.ts';
import type { TestOutcome, TestProvider } from '../infra/payments/test-provider.ts';
import type { PaymentStatus } from './payment-status.ts';
import type { PaymentProviders } from './providers.ts';

/**
 * Simulated payments: 'local' on a developer's machine, 'public' when the operator allowed them on a public
 * origin (ALLOW_TEST_PAYMENTS), 'refused' on a public origin otherwise; 'none' when a real provider is used.
 */
export type TestPaymentsMode = 'none' | 'local' | 'public' | 'refused';

/** The test provider's hosted checkout, and where simulated payments may run at all. */
export function createTestPayments(deps: {
  db: Db; providers: PaymentProviders; status: Pick<PaymentStatus, 'sync'>;
  /** The test provider's checkouts. */
  testCheckouts?: TestProvider;
  /** ALLOW_TEST_PAYMENTS: the operator's explicit consent to simulated payments on a public origin. */
  allowTestPaymentsOnPublic?: boolean;
  isPublicDeployment: () => Promise<boolean>;
}) {
  const { db, providers, testCheckouts } = deps;

  /** Simulated payments for a site (or, without one, for the deployment's default provider). */
  async function testPayments(siteId?: number): Promise<TestPaymentsMode> {
    if (!testCheckouts) return 'none';
    if (siteId !== undefined && (await providers.forSite(siteId)).provider.name !== testCheckouts.name) return 'none';
    if (!(await deps.isPublicDeployment())) return 'local';
    return deps.allowTestPaymentsOnPublic ? 'public' : 'refused';
  }

  /** The member's own test checkout; anybody else's, or any when simulated payments are refused, does not exist. */
  async function ownTestCheckout(userId: number, ref: string) {
    if (!testCheckouts || !['local', 'public'].includes(await testPayments())) throw notFound();
    const [owner] = await db.select({ userId: orders.userId }).from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.provider, testCheckouts.name), eq(payments.providerRef, ref)));
    if (!owner || owner.userId !== userId) throw notFound();
    const checkout = await testCheckouts.checkout(ref);
    if (!checkout) throw notFound();
    return { checkouts: testCheckouts, checkout };
  }

  return {
    testPayments,

    /** Whether `/api/payment-webhook.php?provider=` is an address this deployment answers: a known provider, and simulated payments only where they may run. */
    async acceptsWebhooks(providerName: string): Promise<boolean> {
      if (!providers.isKnown(providerName)) return false;
      return !(testCheckouts && providerName === testCheckouts.name && (await testPayments()) === 'refused');
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
      await deps.status.sync(checkouts.name, checkout.id);
      return decided.redirectUrl;
    },
  };
}
