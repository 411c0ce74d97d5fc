import { Hono } from 'hono';
import { profileIdBody } from '#common/contracts/shapes.ts';
import type { AppEnv } from '../http/context.ts';
import { memberRateKey, rateLimit, requireId, validBody, type C } from '../http/helpers.ts';

/** Likes and unlikes count together, per member: a like/unlike loop is one thing. */
const limitLikes = (c: C) => {
  const { rateLimits } = c.get('ctx').services;
  return rateLimit(c, [rateLimits.likesPerMinute, rateLimits.likesPerHour], memberRateKey(c));
};

export const membersRoutes = new Hono<AppEnv>()
  /** ?id= a member's profile as the viewer may see it; without id the signed-in member's editable profile. */
  .get('/profile.php', async (c) => {
    const ctx = c.get('ctx');
    if (c.req.query('id') === undefined) return c.json({ profile: await ctx.services.profiles.own(ctx.actor) });
    const id = requireId(c.req.query('id'), 'id');
    return c.json({ profile: await ctx.services.viewProfile(ctx.actor, id, { visibleFields: ctx.site.visibleProfileFields }) });
  })

  .post('/like.php', async (c) => {
    const ctx = c.get('ctx');
    await limitLikes(c);
    return c.json(await ctx.services.likes.like(ctx.actor, (await validBody(c, profileIdBody)).profile_id));
  })

  .delete('/like.php', async (c) => {
    const ctx = c.get('ctx');
    await limitLikes(c);
    await ctx.services.likes.unlike(ctx.actor, (await validBody(c, profileIdBody)).profile_id);
    return c.json({ ok: true });
  })

  /** Spec section 7: the profile for the new-like overlay (the newest like not looked at yet), or null. */
  .get('/auto-like.php', async (c) => {
    const ctx = c.get('ctx');
    const profile = await ctx.services.likes.autoLike(ctx.actor);
    return c.json({ profile: profile && { ...profile, main_image: profile.main_image && { ...profile.main_image, match: `/photos/${profile.main_image.filename}` } } });
  })

  .get('/likes.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.likes.overview(ctx.actor));
  });
