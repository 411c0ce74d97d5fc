import { Hono } from 'hono';
import { z } from 'zod';
import { discountCodeSchema, retentionOfferRequestSchema } from '#common/discounts.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, memberRateKey, parse, rateLimit } from '../http/helpers.ts';

const codeQuery = z.object({ code: discountCodeSchema });

export const discountsRoutes = new Hono<AppEnv>()
  /** `?code=XYZ`: the code for this member; `?welcome=true`: the welcome time bonus. Other parameters are ignored. */
  .get('/discountcode.php', async (c) => {
    const ctx = c.get('ctx');
    if (c.req.query('welcome') === 'true') return c.json(await ctx.services.discounts.welcomeBonus(ctx.actor));
    const { code } = parse(codeQuery, { code: c.req.query('code') });
    await rateLimit(c, ctx.services.rateLimits.discountCodes, `member:${memberRateKey(c)}`);
    return c.json(await ctx.services.discounts.lookup(ctx.actor, code));
  })

  /** {reason}: the deletion page's retention offer, made once per member; asked again, the same code or the refusal. */
  .post('/delete-offer.php', async (c) => {
    const ctx = c.get('ctx');
    const { reason } = parse(retentionOfferRequestSchema, await jsonBody(c));
    return c.json({ discount: await ctx.services.discounts.retentionOffer(ctx.actor, reason) });
  });
