import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { pushSubscriptionBodySchema } from '#common/contracts/accounts.ts';
import { validBody } from '../http/helpers.ts';
import { requireMember } from '../actor.ts';

export const pushRoutes = new Hono<AppEnv>()
  /**
   * POST /api/user.php?push=1 {subscription}: a PushSubscription (→ subscribed), false (→ not_subscribed)
   * or 'denied'. Answers {push: {state}}. Without ?push=1 the request is a log-in and passes on.
   */
  .post('/user.php', async (c, next) => {
    if (c.req.query('push') !== '1') return next();
    const ctx = c.get('ctx');
    // This path is also the log-in, which visitors may use: refuse them here, before the body is read.
    requireMember(ctx.actor);
    const { subscription } = await validBody(c, pushSubscriptionBodySchema);
    const state = await ctx.services.push.setSubscription(ctx.actor, subscription);
    return c.json({ push: { state } });
  })

  /** {push: {state, public_key}}: the member's push state and the VAPID public key to subscribe with. */
  .get('/push.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ push: { state: await ctx.services.push.state(ctx.actor), public_key: await ctx.services.push.publicKey() } });
  })

  /** Beacon when a page becomes hidden: records when the member was last active. Always 204. */
  .post('/page-hidden.php', async (c) => {
    const ctx = c.get('ctx');
    if (ctx.actor.kind === 'member') await ctx.services.signup.touch(ctx.actor);
    return c.body(null, 204);
  });
