import { Hono } from 'hono';
import { searchSchema } from '#common/schemas.ts';
import { AppError } from '../infra/errors.ts';
import type { AppEnv } from '../http/context.ts';
import { searchAllowed } from '../search/search-access.ts';
import { jsonBody, parse, positiveInt, requireUserId } from '../http/helpers.ts';

export const membersRoutes = new Hono<AppEnv>()
  .get('/members.php', async (c) => {
    const ctx = c.get('ctx');
    if (!searchAllowed(ctx)) throw new AppError(403, 'authentication_required');
    const input = parse(searchSchema, c.req.query());
    return c.json(await ctx.services.search.search(ctx.userId, input));
  })

  .get('/profile.php', async (c) => {
    const ctx = c.get('ctx');
    const id = positiveInt(c.req.query('id'));
    const profile = await ctx.services.profiles.detail(ctx.userId, id);
    if (ctx.userId && profile.liked_me) await ctx.services.likes.markSeen(ctx.userId, id);
    return c.json({ profile });
  })

  .post('/like.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    return c.json(await ctx.services.likes.like(userId, positiveInt(body.profile_id)));
  })

  .delete('/like.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    await ctx.services.likes.unlike(userId, positiveInt(body.profile_id));
    return c.json({ ok: true });
  })

  .get('/likes.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.likes.overview(requireUserId(c)));
  });
