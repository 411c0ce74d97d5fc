import { accountContracts, pushSubscriptionBodySchema } from '#common/contracts/accounts.ts';
import { activityContracts } from '#common/contracts/push.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const pushRoutes = new ApiRoutes()
  /**
   * POST /api/user.php?push=1 {subscription}: a PushSubscription (→ subscribed), false (→ not_subscribed)
   * or 'denied'. Answers {push: {state}}. Without ?push=1 the request is a log-in and passes on (accounts.routes.ts).
   * The log-in's path is open to visitors: this one is refused to them before the body is read.
   */
  .endpoint(accountContracts.logIn, { when: (query) => query.push === '1', auth: 'member', body: pushSubscriptionBodySchema }, async (c, { body }) => {
    const ctx = c.get('ctx');
    const state = await ctx.services.push.setSubscription(ctx.actor, body.subscription);
    return c.json({ push: { state } });
  })

  /** {push: {state, public_key}}: the member's push state and the VAPID public key to subscribe with. */
  .endpoint(activityContracts.push, async (c) => {
    const ctx = c.get('ctx');
    return c.json({ push: { state: await ctx.services.push.state(ctx.actor), public_key: await ctx.services.push.publicKey() } });
  })

  /** Beacon when a page becomes hidden: records when the member was last active. Always 204. */
  .endpoint(activityContracts.pageHidden, async (c) => {
    const ctx = c.get('ctx');
    if (ctx.actor.kind === 'member') await ctx.services.signup.touch(ctx.actor);
    return c.body(null, 204);
  });
