import type { Tx } from '../../db/client.ts';

/** What a payment provider must offer: a hosted checkout and the status of a payment. Statuses follow Mollie's. */
export type ProviderStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'canceled' | 'expired' | 'failed';

export interface CreatePaymentInput {
  orderId: string;
  amountCents: number;
  currency: string;
  description: string;
  method: string;
  redirectUrl: string;
  webhookUrl: string;
}

export interface PaymentProvider {
  readonly name: string;
  /**
   * Called inside the transaction that creates the order (`tx`): a provider that keeps its side in
   * this database (the test provider) writes through it; a remote provider ignores it.
   */
  createPayment(input: CreatePaymentInput, tx?: Tx): Promise<{ ref: string; checkoutUrl: string }>;
  getStatus(ref: string): Promise<ProviderStatus | null>;
  /**
   * Cancels an open or pending payment where the provider allows it (true: cancelled); absent or false
   * when it cannot, and then the order is cancelled on our side only (a late payment still completes it).
   */
  cancelPayment?(ref: string): Promise<boolean>;
  /** Returns the money of a paid payment to the payer (a refund booked by the operator or the system). */
  refundPayment?(ref: string, amountCents: number, currency: string): Promise<void>;
}
