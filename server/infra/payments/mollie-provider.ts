import { createMollieClient, type MollieClient, type SequenceType as MollieSequenceType } from '@mollie/api-client';
import {
  maskAccount, maskEmail, ProviderUnavailableError, type PaymentProvider, type ProviderMandate, type ProviderPayment, type SequenceType,
} from './provider.ts';

/** Mollie wants amounts as decimal strings with two decimals ("9.95"). */
export function mollieAmount(cents: number, currency: string) {
  return { currency, value: (cents / 100).toFixed(2) };
}

/** A Mollie status code meaning "no such object" (404) or "gone" (410): the id is unknown, not the provider down. */
function isNotFound(error: unknown): boolean {
  const status = (error as { statusCode?: number } | null)?.statusCode;
  return status === 404 || status === 410;
}

/** Calls Mollie; anything but "not found" becomes ProviderUnavailableError (its message carries no request data). */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new ProviderUnavailableError('mollie', error);
  }
}

async function orNull<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw new ProviderUnavailableError('mollie', error);
  }
}

function maskMandateDetails(method: string, details: Record<string, unknown> | null | undefined): string {
  if (!details) return '';
  if (typeof details.cardNumber === 'string') {
    const label = typeof details.cardLabel === 'string' ? `${details.cardLabel} ` : '';
    return `${label}•••• ${details.cardNumber.slice(-4)}`;
  }
  const account = typeof details.consumerAccount === 'string' ? details.consumerAccount : '';
  return method === 'paypal' || account.includes('@') ? maskEmail(account) : maskAccount(account);
}

/**
 * Mollie through its official client. `apiEndpoint` points it elsewhere (tests run a local server that
 * speaks Mollie's API). One client per API key; the key stays in the client and is never logged.
 */
export function createMollieProvider(options: { apiKey: string; apiEndpoint?: string }): PaymentProvider {
  const client: MollieClient = createMollieClient({ apiKey: options.apiKey, ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}) });

  return {
    name: 'mollie',

    async createPayment(input) {
      const payment = await call(() => client.payments.create({
        amount: mollieAmount(input.amountCents, input.currency),
        description: input.description,
        redirectUrl: input.redirectUrl,
        webhookUrl: input.webhookUrl,
        ...(input.method ? { method: input.method as never } : {}),
        sequenceType: (input.sequenceType ?? 'oneoff') as MollieSequenceType,
        ...(input.customerId ? { customerId: input.customerId } : {}),
        ...(input.mandateId ? { mandateId: input.mandateId } : {}),
        metadata: { order_id: input.orderId },
        // A retry after a lost answer gets the same payment back instead of a second one.
        idempotencyKey: `${input.orderId}:${input.sequenceType ?? 'oneoff'}`,
      }));
      return { ref: payment.id, checkoutUrl: payment.getCheckoutUrl() ?? null };
    },

    async getPayment(ref): Promise<ProviderPayment | null> {
      const payment = await orNull(() => client.payments.get(ref));
      if (!payment) return null;
      // Mollie leaves a charged-back payment 'paid' and names the amount taken back; any amount is a chargeback.
      const chargedBack = payment.status === 'paid' && Number(payment.amountChargedBack?.value ?? 0) > 0;
      return {
        status: chargedBack ? 'charged_back' : payment.status as ProviderPayment['status'],
        sequenceType: (payment.sequenceType ?? 'oneoff') as SequenceType,
        customerId: payment.customerId ?? null,
        mandateId: payment.mandateId ?? null,
      };
    },

    async methods(query) {
      const methods = await call(() => client.methods.list({
        sequenceType: query.sequenceType as MollieSequenceType,
        amount: mollieAmount(query.amountCents, query.currency),
        billingCountry: query.country,
      }));
      return methods.map((m) => m.id as string);
    },

    async createCustomer(input) {
      const customer = await call(() => client.customers.create({
        name: input.name, email: input.email, metadata: { user_id: input.userId },
      }));
      return customer.id;
    },

    async getMandate(customerId, mandateId): Promise<ProviderMandate | null> {
      const mandate = await orNull(() => client.customerMandates.get(mandateId, { customerId }));
      if (!mandate) return null;
      const status = mandate.status === 'valid' || mandate.status === 'pending' ? mandate.status : 'invalid';
      return { id: mandate.id, status, method: mandate.method, details: maskMandateDetails(mandate.method, mandate.details as unknown as Record<string, unknown>) };
    },

    async createMandate(customerId, input): Promise<ProviderMandate> {
      const mandate = await call(() => client.customerMandates.create({
        customerId, method: 'directdebit' as never, consumerName: input.consumerName, consumerAccount: input.consumerAccount,
        signatureDate: input.signatureDate, mandateReference: input.mandateReference, idempotencyKey: input.idempotencyKey,
      }));
      const status = mandate.status === 'valid' || mandate.status === 'pending' ? mandate.status : 'invalid';
      return { id: mandate.id, status, method: mandate.method, details: maskMandateDetails(mandate.method, mandate.details as unknown as Record<string, unknown>) };
    },

    async revokeMandate(customerId, mandateId) {
      await orNull(() => client.customerMandates.revoke(mandateId, { customerId }));
    },

    /** Mollie cancels an open payment of a method that allows it; otherwise it answers 422 and the payment stays. */
    async cancelPayment(ref) {
      try {
        return (await client.payments.cancel(ref)).status === 'canceled';
      } catch (error) {
        if (isNotFound(error) || (error as { statusCode?: number }).statusCode === 422) return false;
        throw new ProviderUnavailableError('mollie', error);
      }
    },

    async refundPayment(ref, amountCents, currency) {
      await call(() => client.paymentRefunds.create({ paymentId: ref, amount: { value: (amountCents / 100).toFixed(2), currency } }));
    },
  };
}
