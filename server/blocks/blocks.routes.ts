import { Hono } from 'hono';
import { profileIdBody } from '#common/contracts/shapes.ts';
import type { AppEnv } from '../http/context.ts';
import { validBody } from '../http/helpers.ts';

export const blocksRoutes = new Hono<AppEnv>()
  /** The members I blocked → {profiles}. */
  .get('/block.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ profiles: await ctx.services.blocks.list(ctx.actor) });
  })
  /** {profile_id} → {blocked: true} */
  .post('/block.php', async (c) => {
    const ctx = c.get('ctx');
    await ctx.services.blocks.block(ctx.actor, (await validBody(c, profileIdBody)).profile_id);
    return c.json({ blocked: true });
  })
  /** {profile_id} → {blocked: false} */
  .delete('/block.php', async (c) => {
    const ctx = c.get('ctx');
    await ctx.services.blocks.unblock(ctx.actor, (await validBody(c, profileIdBody)).profile_id);
    return c.json({ blocked: false });
  });
