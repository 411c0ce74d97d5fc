import { isReference } from '#common/input.ts';
import { paymentContracts, webhookBody } from '#common/contracts/payments.ts';
import { visitorCountry } from '../http/context.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { idempotencyKey, isJsonContentType, needsIdempotencyKey, parse, validBody } from '../http/helpers.ts';
import { notFound } from '../infra/errors.ts';

export const paymentsRoutes = new ApiRoutes()
  .endpoint(paymentContracts.packages, async (c) => {
    const ctx = c.get('ctx');
    const { packages } = await ctx.services.payments.catalogue(ctx.actor, { visitorCountry: visitorCountry(ctx) });
    return c.json({ packages });
  })

  /** {package_id, paymentmethod} with an Idempotency-Key header: the order and where to pay it. */
  .endpoint(paymentContracts.order, { before: [needsIdempotencyKey] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    const result = await ctx.services.payments.createOrder(ctx.actor, {
      packageId: body.package_id, paymentmethod: body.paymentmethod, idempotencyKey: idempotencyKey(c), recurring: body.recurring === true,
      discountCode: body.discount_code, expectedAmount: body.amount, withdrawalConsent: body.withdrawal_consent, returnTo: body.return_to,
    });
    return c.json(result, 201);
  })

  /** The methods the site's provider offers this payer, per bundle; `recurring`: those that can keep a mandate. */
  .endpoint(paymentContracts.methods, async (c) => {
    const ctx = c.get('ctx');
    const { methods, recurring } = await ctx.services.payments.methods(ctx.actor, { visitorCountry: visitorCountry(ctx) });
    return c.json({ methods, recurring });
  })

  /** One click: a bundle charged on a stored mandate ({package_id, mandate_id, withdrawal_consent} with an Idempotency-Key header). */
  .endpoint(paymentContracts.repeatOrder, { before: [needsIdempotencyKey] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    const result = await ctx.services.payments.repeatOrder(ctx.actor, {
      packageId: body.package_id, mandateId: body.mandate_id, idempotencyKey: idempotencyKey(c), withdrawalConsent: body.withdrawal_consent,
    });
    return c.json(result, 201);
  })

  /** The member's stored mandates (masked). */
  .endpoint(paymentContracts.mandates, async (c) => {
    const ctx = c.get('ctx');
    return c.json({ mandates: await ctx.services.payments.mandates(ctx.actor) });
  })

  /** Cancels a stored mandate (?id=): revoked at the provider, then no longer offered. */
  .endpoint(paymentContracts.revokeMandate, async (c, { query }) => {
    const ctx = c.get('ctx');
    await ctx.services.payments.revokeMandate(ctx.actor, query.id);
    return c.json({ ok: true as const });
  })

  .endpoint(paymentContracts.orderStatus, async (c, { query }) => {
    const ctx = c.get('ctx');
    if (!isReference(query.id)) throw notFound();
    return c.json(await ctx.services.payments.order(ctx.actor, query.id));
  })

  /** The test provider's hosted checkout: the order's owner picks the outcome; then the webhook fires and the payer returns. */
  .endpoint(paymentContracts.testCheckout, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json({ redirect_url: await ctx.services.payments.decideTestCheckout(ctx.actor, body.id, body.outcome) });
  })

  /**
   * The provider calls this with `id` (form or JSON); the status is always fetched from the provider, never trusted
   * from the body. Registered by hand: a declaration reads a JSON body or a form, not either, and an unknown provider
   * is a 404, not a query error.
   */
  .post('/payment-webhook.php', async (c) => {
    const ctx = c.get('ctx');
    const provider = c.req.query('provider') ?? 'test';
    if (!(await ctx.services.payments.acceptsWebhooks(provider))) throw notFound();
    // Providers post a form (Mollie: id=tr_…) or JSON; either way only the id counts.
    const { id } = isJsonContentType(c.req.header('content-type'))
      ? await validBody(c, webhookBody)
      : parse(webhookBody, await c.req.parseBody().catch(() => null));
    const status = await ctx.services.payments.sync(provider, id);
    if (!status) throw notFound();
    return c.json({ ok: true, status });
  });
