import { Hono } from 'hono';
import { z } from 'zod';
import { discountCodeSchema } from '#common/discounts.ts';
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

  /** The deletion page's offer: the member's personal code at the company's delete_discount. */
  .post('/delete-offer.php', async (c) => {
    const ctx = c.get('ctx');
    await jsonBody(c);
    const company = await ctx.services.settings.companyInfo(ctx.site);
    return c.json({ discount: await ctx.services.discounts.personalOffer(ctx.actor, company.delete_discount) });
  });
