import { Hono } from 'hono';
import { isReference } from '#common/input.ts';
import { orderSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { currencyFor, packagesFor } from './payment-pages.server.ts';
import { idempotencyKey, isJsonContentType, jsonBody, parse, requireUserId } from '../http/helpers.ts';
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
      currency: await currencyFor(ctx), idempotencyKey: key, baseUrl: ctx.baseUrl, withdrawalConsent: input.withdrawal_consent,
    });
    return c.json(result, 201);
  })

  .get('/order.php', async (c) => {
    const ctx = c.get('ctx');
    const id = c.req.query('id');
    if (!isReference(id)) throw notFound();
    return c.json(await ctx.services.payments.order(requireUserId(c), id));
  })

  /** The provider calls this with `id` (form or JSON); the status is always fetched from the provider, never trusted from the body. */
  .post('/payment-webhook.php', async (c) => {
    const ctx = c.get('ctx');
    if ((c.req.query('provider') ?? 'test') !== ctx.services.testProvider.name) throw notFound();
    if ((await ctx.services.payments.testPayments()) === 'refused') throw notFound();
    const body: unknown = isJsonContentType(c.req.header('content-type'))
      ? await c.req.json().catch(() => null)
      : await c.req.parseBody().catch(() => null);
    // null, an array or a number is no notification: refuse it rather than read fields of it.
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError(400, 'invalid_input');
    const id = (body as Record<string, unknown>).id;
    if (!isReference(id)) throw new AppError(400, 'invalid_input');
    const status = await ctx.services.payments.sync(id);
    if (!status) throw notFound();
    return c.json({ ok: true, status });
  })

  /** The test provider's hosted checkout: the order's owner picks the outcome; then the webhook fires and the payer returns. */
  .post('/test-checkout.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    const outcome = body.outcome as TestOutcome;
    if (!isReference(body.id) || !TEST_OUTCOMES.includes(outcome)) throw new AppError(400, 'invalid_input');
    return c.json({ redirect_url: await ctx.services.payments.decideTestCheckout(userId, body.id, outcome) });
  });
