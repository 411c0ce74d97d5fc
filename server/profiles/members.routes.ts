import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, positiveInt, requireUserId } from '../http/helpers.ts';

export const membersRoutes = new Hono<AppEnv>()
  /** ?id= a member's profile as the viewer may see it; without id the signed-in member's editable profile. */
  .get('/profile.php', async (c) => {
    const ctx = c.get('ctx');
    if (c.req.query('id') === undefined) return c.json({ profile: await ctx.services.profiles.own(requireUserId(c)) });
    const id = positiveInt(c.req.query('id'));
    const profile = await ctx.services.profiles.detail(ctx.userId, id, { visibleFields: ctx.site.visibleProfileFields });
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
