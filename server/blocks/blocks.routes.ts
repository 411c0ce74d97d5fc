import { likesContracts } from '#common/contracts/likes.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const blocksRoutes = new ApiRoutes()
  /** The members I blocked → {profiles}. */
  .endpoint(likesContracts.blocked, async (c) => {
    const ctx = c.get('ctx');
    return c.json({ profiles: await ctx.services.blocks.list(ctx.actor) });
  })
  /** {profile_id} → {blocked: true} */
  .endpoint(likesContracts.block, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.blocks.block(ctx.actor, body.profile_id);
    return c.json({ blocked: true });
  })
  /** {profile_id} → {blocked: false} */
  .endpoint(likesContracts.unblock, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.blocks.unblock(ctx.actor, body.profile_id);
    return c.json({ blocked: false });
  });
