import { Hono } from 'hono';
import { orderSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { currencyFor, packagesFor } from './payment-pages.server.ts';
import { idempotencyKey, jsonBody, parse, requireUserId } from '../http/helpers.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { TEST_OUTCOMES, type TestOutcome } from '../infra/payments/test-provider.ts';


export const paymentsRoutes = new Hono<AppEnv>()
  .get('/packages.php', async (c) => {
    const ctx = c.get('ctx');
    const { packages } = await packagesFor(ctx);
    return c.json({ packages });
  })

  /** {package_id, paymentmethod} with an Idempotency-Key header: the order and where to pay it. */
  .post('/order.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const key = idempotencyKey(c);
    const input = parse(orderSchema, await jsonBody(c));
    const result = await ctx.services.payments.createOrder({
      userId, packageId: input.package_id, paymentmethod: input.paymentmethod,
      currency: await currencyFor(ctx), idempotencyKey: key, baseUrl: ctx.baseUrl,
    });
    return c.json(result, 201);
  })

  .get('/order.php', async (c) => {
    const ctx = c.get('ctx');
    const id = c.req.query('id');
    if (!id || id.length > 64) throw notFound();
    return c.json(await ctx.services.payments.order(requireUserId(c), id));
  })

  /** The provider calls this with `id` (form or JSON); the status is always fetched from the provider, never trusted from the body. */
  .post('/payment-webhook.php', async (c) => {
    const ctx = c.get('ctx');
    if ((c.req.query('provider') ?? 'test') !== ctx.services.testProvider.name) throw notFound();
    const type = c.req.header('content-type') ?? '';
    const body = type.includes('application/json') ? await c.req.json().catch(() => ({})) : await c.req.parseBody().catch(() => ({}));
    const id = (body as Record<string, unknown>).id;
    if (typeof id !== 'string' || id.length > 64) throw new AppError(400, 'invalid_input');
    const status = await ctx.services.payments.sync(id);
    if (!status) throw notFound();
    return c.json({ ok: true, status });
  })

  /** The test provider's hosted checkout: the payer picks the outcome; then the webhook fires and the payer returns. */
  .post('/test-checkout.php', async (c) => {
    const ctx = c.get('ctx');
    const body = await jsonBody(c);
    const outcome = body.outcome as TestOutcome;
    if (typeof body.id !== 'string' || !TEST_OUTCOMES.includes(outcome)) throw new AppError(400, 'invalid_input');
    const checkout = await ctx.services.testProvider.decide(body.id, outcome);
    if (!checkout) throw notFound();
    await ctx.services.payments.sync(checkout.id);
    return c.json({ redirect_url: checkout.redirectUrl });
  });
