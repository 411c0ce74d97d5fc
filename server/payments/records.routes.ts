import { recordsContracts } from '#common/contracts/records.ts';
import { isReference } from '#common/input.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { notFound } from '../infra/errors.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

export const recordsRoutes = new ApiRoutes()
  .endpoint(recordsContracts.orders, async (c, { query }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.records.orders(ctx.actor, query.page ?? 1));
  })

  .endpoint(recordsContracts.ledger, async (c, { query }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.records.ledger(ctx.actor, query.page ?? 1));
  })

  .endpoint(recordsContracts.invoice, async (c, { query }) => {
    const ctx = c.get('ctx');
    if (!isReference(query.id)) throw notFound();
    const { order, invoiceNumber } = await ctx.services.records.invoiceData(ctx.actor, query.id);
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
  })

  /** {id}: cancels the member's own open or pending order; calling it again answers the cancelled order. */
  .endpoint(recordsContracts.cancelOrder, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.records.cancelOrder(ctx.actor, body.id));
  })

  .endpoint(recordsContracts.spendCap, async (c) => c.json(await c.get('ctx').services.records.spendCap(c.get('ctx').actor)))

  /** {period, credits} or {credits: null}: lowering applies at once, raising or removing after the cooling-off period. */
  .endpoint(recordsContracts.setSpendCap, async (c, { body }) => {
    const ctx = c.get('ctx');
    const next = 'period' in body ? { period: body.period, credits: body.credits } : null;
    return c.json(await ctx.services.records.setSpendCap(ctx.actor, next));
  });
