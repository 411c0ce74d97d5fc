import type { Tx } from '../../db/client.ts';

/**
 * What a payment provider must offer: a hosted checkout, payment status, methods and mandates. Statuses follow Mollie's,
 * plus 'charged_back': a paid payment the payer's bank or card issuer took back (Mollie keeps such a payment 'paid' and
 * names the amount in amountChargedBack; the provider reports it as this status).
 */
export type ProviderStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'canceled' | 'expired' | 'failed' | 'charged_back';

/** Mollie's sequenceType: a one-off payment, a first payment that creates a mandate, or a charge on a mandate. */
export type SequenceType = 'oneoff' | 'first' | 'recurring';

export interface CreatePaymentInput {
  orderId: string;
  amountCents: number;
  currency: string;
  description: string;
  /** Empty for a recurring payment: the mandate decides the method. */
  method: string;
  redirectUrl: string;
  webhookUrl: string;
  sequenceType?: SequenceType;
  /** The member's customer at the provider (first and recurring payments). */
  customerId?: string;
  /** The mandate to charge (recurring payments). */
  mandateId?: string;
}

export interface ProviderPayment {
  status: ProviderStatus;
  sequenceType: SequenceType;
  customerId: string | null;
  /** A paid first payment names the mandate it created; a recurring one the mandate it charged. */
  mandateId: string | null;
}

export interface ProviderMandate {
  id: string;
  status: 'valid' | 'pending' | 'invalid';
  method: string;
  /** Masked: the last 4 digits of a card or IBAN, or a masked account name; never a full number. */
  details: string;
}

export interface DirectDebitMandateInput {
  consumerName: string;
  /** The IBAN, normalised (no spaces, capitals). */
  consumerAccount: string;
  /** The day the payer signed (YYYY-MM-DD). */
  signatureDate: string;
  /** Our reference of the mandate (shown on the payer's bank statement). */
  mandateReference: string;
  idempotencyKey: string;
}

export interface MethodsQuery {
  amountCents: number;
  currency: string;
  /** The payer's billing country (ISO 3166-1 alpha-2). */
  country: string;
  sequenceType: SequenceType;
}

export interface PaymentProvider {
  readonly name: 'test' | 'mollie';
  /**
   * Called inside a transaction (`tx`): a provider that keeps its side in this database (the test
   * provider) writes through it; a remote provider ignores it. `checkoutUrl` is null for a recurring
   * payment, which is charged without the payer.
   */
  createPayment(input: CreatePaymentInput, tx?: Tx): Promise<{ ref: string; checkoutUrl: string | null }>;
  /** The payment as the provider knows it; null when it does not know the id. */
  getPayment(ref: string): Promise<ProviderPayment | null>;
  /** The method ids the provider offers for this amount, currency, country and sequence type. */
  methods(query: MethodsQuery): Promise<string[]>;
  createCustomer(input: { name: string; email: string; userId: number }): Promise<string>;
  getMandate(customerId: string, mandateId: string): Promise<ProviderMandate | null>;
  /**
   * Records a SEPA direct-debit mandate the payer signed on our page (account holder, IBAN, date and our
   * reference); `idempotencyKey` makes a retry after a lost answer return the same mandate. Called inside a
   * transaction, like createPayment.
   */
  createMandate(customerId: string, input: DirectDebitMandateInput, tx?: Tx): Promise<ProviderMandate>;
  revokeMandate(customerId: string, mandateId: string): Promise<void>;
  /**
   * Cancels an open or pending payment where the provider allows it (true: cancelled); absent or false
   * when it cannot, and then the order is cancelled on our side only (a late payment still completes it).
   */
  cancelPayment?(ref: string): Promise<boolean>;
  /** Returns the money of a paid payment to the payer (a refund booked by the operator or the system). */
  refundPayment?(ref: string, amountCents: number, currency: string): Promise<void>;
}

/** The provider did not answer or refused the request: the caller may retry later. */
export class ProviderUnavailableError extends Error {
  constructor(provider: string, cause?: unknown) {
    // Only the provider's name and the error's kind: a message may echo the request, never its credentials.
    super(`Payment provider ${provider} is unavailable (${cause instanceof Error ? cause.name : 'error'})`);
    this.name = 'ProviderUnavailableError';
  }
}

/** Masks an IBAN or account number to its country code and last 4 characters: "NL•• •••• 1234". */
export function maskAccount(account: string | null | undefined): string {
  const clean = (account ?? '').replace(/\s+/g, '');
  if (clean.length < 4) return '';
  const country = /^[A-Z]{2}/.test(clean) ? `${clean.slice(0, 2)}•• ` : '';
  return `${country}•••• ${clean.slice(-4)}`;
}

/** Masks an e-mail address (PayPal): "j•••@example.com". */
export function maskEmail(email: string | null | undefined): string {
  const [name, domain] = (email ?? '').split('@');
  if (!name || !domain) return '';
  return `${name[0]}•••@${domain}`;
}
