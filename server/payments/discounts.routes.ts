import { paymentContracts } from '#common/contracts/payments.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { memberRateKey, rateLimit } from '../http/helpers.ts';
import { AppError } from '../infra/errors.ts';

export const discountsRoutes = new ApiRoutes()
  /** `?code=XYZ`: the code for this member; `?welcome=true`: the welcome time bonus. Other parameters are ignored. */
  .endpoint(paymentContracts.discountCode, async (c, { query }) => {
    const ctx = c.get('ctx');
    if (query.welcome === 'true') return c.json(await ctx.services.discounts.welcomeBonus(ctx.actor));
    if (query.code === undefined) throw new AppError(400, 'invalid_input', {}, { code: 'errors.invalid_input' });
    // Only a well-formed code is counted, and the welcome bonus not at all.
    await rateLimit(c, ctx.services.rateLimits.discountCodes, `member:${memberRateKey(c)}`);
    return c.json(await ctx.services.discounts.lookup(ctx.actor, query.code));
  })

  /** {reason}: the deletion page's retention offer, made once per member; asked again, the same code or the refusal. */
  .endpoint(paymentContracts.retentionOffer, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json({ discount: await ctx.services.discounts.retentionOffer(ctx.actor, body.reason) });
  });
