import { z } from 'zod';
import { ORDER_STATUSES, TEST_OUTCOMES } from '../constants.ts';
import { REFERENCE } from '../input.ts';
import { orderSchema as orderRequestSchema, repeatOrderSchema } from '../schemas.ts';
import { directDebitConfirmSchema, directDebitStartSchema } from '../direct-debit.ts';
import { discountCodeSchema, retentionOfferRequestSchema } from '../discounts.ts';
import { checkedByUseCase, contracts, IDEMPOTENCY_KEY } from './contract.ts';
import { creditPackageSchema, discountCodeRecordSchema, idParam, orderSchema, welcomeBonusRecordSchema } from './shapes.ts';

const reference = z.string().regex(REFERENCE);
/** A provider's notification names only the payment; its state is always fetched from the provider. */
export const webhookBody = z.object({ id: reference });
export const testCheckoutBody = z.object({ id: reference, outcome: z.enum(TEST_OUTCOMES) });
const orderWithCheckout = z.strictObject({
  order: orderSchema,
  /** Where the member pays; null once the payment is gone. */
  checkout_url: z.string().nullable(),
});

const methodAvailability = z.strictObject({
  /** A provider method id (Mollie's: ideal, creditcard, paypal, directdebit …). */
  id: z.string(),
  /** The bundles whose amount this method can pay. */
  package_ids: z.array(z.number().int()),
});

const mandateSchema = z.strictObject({
  id: z.number().int(),
  method: z.string(),
  /** Masked: a card's or IBAN's last 4 digits, never the full number. */
  details: z.string(),
  status: z.enum(['valid', 'pending']),
  created_at: z.string(),
});

export const paymentContracts = contracts({
  packages: {
    method: 'get', path: '/api/packages.php', summary: 'Credit packages in the member\'s currency',
    responses: { 200: { description: 'The packages.', schema: z.strictObject({ packages: z.array(creditPackageSchema) }) } },
  },
  order: {
    method: 'post', path: '/api/order.php', auth: 'member', summary: 'Order a credit package',
    description: 'A retry with the same Idempotency-Key answers the first order; the same key with another package or method is refused (422). The active discount (the welcome time bonus, else `discount_code`, else the site\'s welcome code; the largest wins) is applied in whole cents, rounded down; with `amount`, a price that changed since the member saw it is refused (409 price_changed). A once-per-user discount goes to one unfinished order at a time: while another order of the member holds it, the order is refused (409 discount_in_use) until that one is paid, fails, expires or is cancelled.',
    headers: IDEMPOTENCY_KEY,
    body: orderRequestSchema,
    responses: { 201: { description: 'The order and where to pay it.', schema: orderWithCheckout } },
  },
  methods: {
    method: 'get', path: '/api/payment-methods.php', summary: 'Payment methods the site\'s provider offers the payer',
    description: 'Per country and amount (each bundle); `recurring` lists the methods that can keep a mandate for repeat orders. Cached briefly.',
    responses: { 200: { description: 'The methods.', schema: z.strictObject({ methods: z.array(methodAvailability), recurring: z.array(methodAvailability) }) } },
  },
  repeatOrder: {
    method: 'post', path: '/api/repeat-order.php', auth: 'member', summary: 'Repeat order: buy a bundle on a stored mandate',
    description: 'No checkout: the provider charges the mandate. Each repeat order is a new contract, so `withdrawal_consent: true` is required (400 without it) and recorded. A retry with the same Idempotency-Key answers the first order.',
    headers: IDEMPOTENCY_KEY,
    body: repeatOrderSchema,
    responses: { 201: { description: 'The order (its status page shows the outcome).', schema: orderWithCheckout } },
  },
  mandates: {
    method: 'get', path: '/api/mandates.php', auth: 'member', summary: 'The member\'s stored mandates',
    responses: { 200: { description: 'Valid and pending mandates, masked.', schema: z.strictObject({ mandates: z.array(mandateSchema) }) } },
  },
  revokeMandate: {
    method: 'delete', path: '/api/mandates.php', auth: 'member', summary: 'Cancel a stored mandate',
    description: 'Revokes the mandate at the provider; it is no longer offered for repeat orders.',
    query: z.object({ id: idParam }),
    responses: { 200: { description: 'Cancelled.', schema: z.strictObject({ ok: z.literal(true) }) } },
  },
  orderStatus: {
    method: 'get', path: '/api/order.php', auth: 'member', summary: 'One of the member\'s orders',
    description: 'An open or pending order is refreshed from the payment provider first.',
    // An id that is no reference names no order of the member's: 404, as another's order.
    query: z.object({ id: checkedByUseCase(reference) }),
    responses: { 200: { description: 'The order.', schema: orderWithCheckout } },
  },
  webhook: {
    method: 'post', path: '/api/payment-webhook.php', summary: 'Payment provider notification',
    description: 'The provider sends the payment id (form or JSON); the status is always fetched from the provider.',
    query: z.object({ provider: z.enum(['test', 'mollie']).optional() }),
    body: webhookBody,
    responses: { 200: { description: 'The order\'s status now.', schema: z.strictObject({ ok: z.literal(true), status: z.enum(ORDER_STATUSES) }) } },
  },
  discountCode: {
    method: 'get', path: '/api/discountcode.php', auth: 'member', summary: 'A discount code, or the welcome time bonus',
    description: 'With `code`: the code as this member may use it; refused when unknown (404 discount_not_found), already used (409 discount_already_used), expired (410), for another country (422 discount_wrong_country) or for new members only (409). With `welcome=true`: the welcome time bonus TIMEBONUS25 for a member who never paid, within 14,400 s of signing up and not used yet; otherwise 404. Other query parameters are ignored.',
    // Any other `welcome` is ignored, as other parameters are.
    query: z.object({ code: discountCodeSchema.optional(), welcome: z.literal('true').optional().catch(undefined) }),
    responses: { 200: { description: 'The code (with `code`) or the welcome time bonus (with `welcome=true`).', schema: z.union([discountCodeRecordSchema, welcomeBonusRecordSchema]) } },
  },
  retentionOffer: {
    method: 'post', path: '/api/delete-offer.php', auth: 'member', summary: 'Accept the deletion page\'s retention offer',
    description: 'With the reason for leaving (400 delete_reason_required without one), makes the member\'s retention offer: a personal once-per-user code at the company\'s delete_discount percentage, valid 30 days; 404 when the company makes no such offer. It is made once per member: asked again, the same code while it can be used, else 409 discount_already_used or 410 discount_expired, and never a new one.',
    body: retentionOfferRequestSchema,
    responses: { 200: { description: 'The member\'s personal code.', schema: z.strictObject({ discount: discountCodeRecordSchema }) } },
  },
  directDebit: {
    method: 'post', path: '/api/directdebit.php', auth: 'member', summary: 'Direct debit, step 1: the mandate\'s details; a code goes by SMS',
    description: 'Euros only (422 direct_debit_unavailable). The IBAN must be valid and of a SEPA country (400 iban_invalid, iban_not_sepa), the mobile number international (400 phone_invalid). Refused for a blocked IBAN or number (422 iban_blocked, phone_blocked), over the member\'s 30-day direct-debit limit (409 direct_debit_limit_reached), after too many codes for the number or the member in an hour (429 sms_limit_reached); with `amount`, a price that changed is refused (409 price_changed). The code is valid for 10 minutes.',
    body: directDebitStartSchema,
    responses: { 201: { description: 'The request the code belongs to and the masked number it went to.', schema: z.strictObject({ request: reference, phone: z.string(), expires_in: z.number().int().positive() }) } },
  },
  directDebitConfirm: {
    method: 'post', path: '/api/directdebit-confirm.php', auth: 'member', summary: 'Direct debit, step 2: the SMS code',
    description: 'A wrong code answers 422 sms_code_wrong; the 5th wrong one locks the request (429 sms_code_attempts); an expired one 410 sms_code_expired. The right code places the order, the mandate and the debit at the site\'s provider; the order is pending until the provider reports the debit paid. Confirming again answers the same order.',
    body: directDebitConfirmSchema,
    responses: { 201: { description: 'The order (its status page shows the outcome).', schema: orderWithCheckout } },
  },
  testCheckout: {
    method: 'post', path: '/api/test-checkout.php', auth: 'member', summary: 'The simulated provider\'s checkout: pick the outcome',
    body: testCheckoutBody,
    responses: { 200: { description: 'Where the payer returns to.', schema: z.strictObject({ redirect_url: z.string() }) } },
  },
});
