import { Hono } from 'hono';
import { isReference } from '#common/input.ts';
import { orderSchema, repeatOrderSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { currencyFor, methodsFor, packagesFor, payerCountry } from './payment-pages.server.ts';
import { idempotencyKey, isJsonContentType, parse, validBody } from '../http/helpers.ts';
import { toId } from '#common/input.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { testCheckoutBody, webhookBody } from '#common/contracts/payments.ts';


export const paymentsRoutes = new Hono<AppEnv>()
  .get('/packages.php', async (c) => {
    const ctx = c.get('ctx');
    const { packages } = await packagesFor(ctx);
    return c.json({ packages });
  })

  /** {package_id, paymentmethod} with an Idempotency-Key header: the order and where to pay it. */
  .post('/order.php', async (c) => {
    const ctx = c.get('ctx');
    const key = idempotencyKey(c);
    const input = await validBody(c, orderSchema);
    const result = await ctx.services.payments.createOrder(ctx.actor, {
      packageId: input.package_id, paymentmethod: input.paymentmethod,
      currency: await currencyFor(ctx), idempotencyKey: key, baseUrl: ctx.baseUrl,
      country: await payerCountry(ctx), recurring: input.recurring === true,
      discountCode: input.discount_code, expectedAmount: input.amount,
      withdrawalConsent: input.withdrawal_consent,
    });
    return c.json(result, 201);
  })

  /** The methods the site's provider offers this payer, per bundle; `recurring`: those that can keep a mandate. */
  .get('/payment-methods.php', async (c) => {
    const { methods, recurring } = await methodsFor(c.get('ctx'));
    return c.json({ methods, recurring });
  })

  /** One click: a bundle charged on a stored mandate ({package_id, mandate_id, withdrawal_consent} with an Idempotency-Key header). */
  .post('/repeat-order.php', async (c) => {
    const ctx = c.get('ctx');
    const key = idempotencyKey(c);
    const input = await validBody(c, repeatOrderSchema);
    const result = await ctx.services.payments.repeatOrder(ctx.actor, {
      packageId: input.package_id, mandateId: input.mandate_id,
      currency: await currencyFor(ctx), idempotencyKey: key, baseUrl: ctx.baseUrl,
      withdrawalConsent: input.withdrawal_consent,
    });
    return c.json(result, 201);
  })

  /** The member's stored mandates (masked). */
  .get('/mandates.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ mandates: await ctx.services.payments.mandates(ctx.actor) });
  })

  /** Cancels a stored mandate (?id=): revoked at the provider, then no longer offered. */
  .delete('/mandates.php', async (c) => {
    const ctx = c.get('ctx');
    const id = toId(c.req.query('id'));
    if (id === null) throw new AppError(400, 'invalid_input');
    await ctx.services.payments.revokeMandate(ctx.actor, id);
    return c.json({ ok: true as const });
  })

  .get('/order.php', async (c) => {
    const ctx = c.get('ctx');
    const id = c.req.query('id');
    if (!isReference(id)) throw notFound();
    return c.json(await ctx.services.payments.order(ctx.actor, id));
  })

  /** The provider calls this with `id` (form or JSON); the status is always fetched from the provider, never trusted from the body. */
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
  })

  /** The test provider's hosted checkout: the order's owner picks the outcome; then the webhook fires and the payer returns. */
  .post('/test-checkout.php', async (c) => {
    const ctx = c.get('ctx');
    const { id, outcome } = await validBody(c, testCheckoutBody);
    return c.json({ redirect_url: await ctx.services.payments.decideTestCheckout(ctx.actor, id, outcome) });
  });
