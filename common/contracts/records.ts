import { z } from 'zod';
import { spendCapRequestSchema } from '../schemas.ts';
import { checkedByUseCase, contracts } from './contract.ts';
import { ledgerEntrySchema, orderSchema, spendCapSchema, transactionOrderSchema } from './shapes.ts';

const reference = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** `?page=` of a list: absent is the first; anything but a positive number is refused. */
const pageQuery = z.object({ page: z.string().regex(/^[1-9][0-9]{0,5}$/).transform(Number).optional() });
const paging = { page: z.number().int().positive(), pages: z.number().int().positive() };

/** The member's records: orders, the credit ledger, invoices, cancelling an unpaid order and the spend cap. */
export const recordsContracts = contracts({
  orders: {
    method: 'get', path: '/api/orders.php', auth: 'member', summary: 'The member\'s orders, newest first',
    query: pageQuery,
    responses: { 200: { description: 'A page of orders.', schema: z.strictObject({ orders: z.array(transactionOrderSchema), ...paging }) } },
  },
  ledger: {
    method: 'get', path: '/api/credit-ledger.php', auth: 'member', summary: 'The member\'s credit ledger, newest first',
    description: 'Every credit added or spent, with its reason: purchases, refunds, bonuses, messages, gifts and photos.',
    query: pageQuery,
    responses: { 200: { description: 'A page of ledger rows.', schema: z.strictObject({ entries: z.array(ledgerEntrySchema), ...paging }) } },
  },
  invoice: {
    method: 'get', path: '/api/invoice.php', auth: 'member', summary: 'The invoice of a completed order (PDF)',
    description: 'Only the order\'s owner; other orders and unpaid ones answer 404. Sent as an attachment.',
    // An id that is no reference names no order of the member's: 404, as another's order.
    query: z.object({ id: checkedByUseCase(reference) }),
    responses: { 200: { description: 'The invoice.', contentType: 'application/pdf' } },
  },
  cancelOrder: {
    method: 'post', path: '/api/order-cancel.php', auth: 'member', summary: 'Cancel an open or pending order of one\'s own',
    description: 'The provider\'s payment is cancelled where possible. Cancelling a cancelled order answers it again; a paid or failed one is refused (409).',
    body: z.object({ id: reference }),
    responses: { 200: { description: 'The cancelled order.', schema: z.strictObject({ order: orderSchema, checkout_url: z.string().nullable() }) } },
  },
  spendCap: {
    method: 'get', path: '/api/spend-cap.php', auth: 'member', summary: 'The member\'s own spend cap',
    responses: { 200: { description: 'The cap in force, what was spent under it and a change still cooling off.', schema: spendCapSchema } },
  },
  setSpendCap: {
    method: 'put', path: '/api/spend-cap.php', auth: 'member', summary: 'Set, lower, raise or remove the spend cap',
    description: 'A stricter cap applies at once (applied: now); a raise or a removal waits for the cooling-off period (applied: later).',
    body: spendCapRequestSchema,
    responses: { 200: { description: 'The cap now.', schema: spendCapSchema.extend({ applied: z.enum(['now', 'later']) }) } },
  },
});
