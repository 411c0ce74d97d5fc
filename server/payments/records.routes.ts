import { Hono } from 'hono';
import { isReference } from '#common/input.ts';
import { spendCapRequestSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, parse, type C } from '../http/helpers.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

/** `?page=` of a list: absent is 1; anything but a positive number is a 400. */
export function pageParam(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new AppError(400, 'invalid_input', {}, { page: 'errors.invalid_input' });
  return Number(value);
}

async function invoice(c: C) {
  const ctx = c.get('ctx');
  const id = c.req.query('id');
  if (!isReference(id)) throw notFound();
  const { order, invoiceNumber } = await ctx.services.records.invoiceData(ctx.actor, id);
  const [user, company] = await Promise.all([ctx.user(), ctx.services.settings.companyInfo(ctx.site)]);
  const pdf = await renderInvoicePdf({
    lang: ctx.lang, invoiceNumber, issuedAt: order.completedAt ?? order.createdAt, orderId: order.id, credits: order.credits,
    amountCents: order.amountCents, currency: order.currency, paymentmethod: order.paymentmethod, country: user?.profile.country ?? null,
    buyer: { name: user?.profile.name ?? '', email: user?.email ?? '' }, siteName: ctx.site.name, company,
  }, ctx.translator);
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="invoice-${invoiceNumber.replace(/[^A-Za-z0-9_-]/g, '')}.pdf"`,
    'Cache-Control': 'private, no-store',
  });
}

export const recordsRoutes = new Hono<AppEnv>()
  .get('/orders.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.records.orders(ctx.actor, pageParam(c.req.query('page'))));
  })

  .get('/credit-ledger.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.records.ledger(ctx.actor, pageParam(c.req.query('page'))));
  })

  .get('/invoice.php', invoice)

  /** {id}: cancels the member's own open or pending order; calling it again answers the cancelled order. */
  .post('/order-cancel.php', async (c) => {
    const ctx = c.get('ctx');
    const body = await jsonBody(c);
    if (!isReference(body.id)) throw new AppError(400, 'invalid_input');
    return c.json(await ctx.services.records.cancelOrder(ctx.actor, body.id));
  })

  .get('/spend-cap.php', async (c) => c.json(await c.get('ctx').services.records.spendCap(c.get('ctx').actor)))

  /** {period, credits} or {credits: null}: lowering applies at once, raising or removing after the cooling-off period. */
  .put('/spend-cap.php', async (c) => {
    const ctx = c.get('ctx');
    const input = parse(spendCapRequestSchema, await jsonBody(c));
    const next = 'period' in input ? { period: input.period, credits: input.credits } : null;
    return c.json(await ctx.services.records.setSpendCap(ctx.actor, next));
  });
