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
  createPayment(input: CreatePaymentInput): Promise<{ ref: string; checkoutUrl: string }>;
  getStatus(ref: string): Promise<ProviderStatus | null>;
}
