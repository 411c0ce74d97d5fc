import { Hono } from 'hono';
import { profileIdBody } from '#common/contracts/shapes.ts';
import type { AppEnv } from '../http/context.ts';
import { requireUserId, validBody } from '../http/helpers.ts';

export const blocksRoutes = new Hono<AppEnv>()
  /** The members I blocked → {profiles}. */
  .get('/block.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ profiles: await ctx.services.blocks.list(requireUserId(c)) });
  })
  /** {profile_id} → {blocked: true} */
  .post('/block.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    await ctx.services.blocks.block(userId, (await validBody(c, profileIdBody)).profile_id);
    return c.json({ blocked: true });
  })
  /** {profile_id} → {blocked: false} */
  .delete('/block.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    await ctx.services.blocks.unblock(userId, (await validBody(c, profileIdBody)).profile_id);
    return c.json({ blocked: false });
  });
