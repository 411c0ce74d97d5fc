import { Hono } from 'hono';
import { profileSchema } from '#common/profile.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, parse } from '../http/helpers.ts';

/** PUT /api/profile.php: the /profile form. Everything is checked; a bad field changes nothing. */
export const profileRoutes = new Hono<AppEnv>()
  .put('/profile.php', async (c) => {
    const ctx = c.get('ctx');
    const current = await ctx.services.profiles.own(ctx.actor);
    const input = parse(profileSchema(current.email), await jsonBody(c));
    return c.json({ profile: await ctx.services.profiles.update(ctx.actor, input) });
  });
