import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, requireId, requireUserId } from '../http/helpers.ts';

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
    const body = await jsonBody(c);
    await ctx.services.blocks.block(userId, requireId(body.profile_id, 'profile_id'));
    return c.json({ blocked: true });
  })
  /** {profile_id} → {blocked: false} */
  .delete('/block.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    await ctx.services.blocks.unblock(userId, requireId(body.profile_id, 'profile_id'));
    return c.json({ blocked: false });
  });
