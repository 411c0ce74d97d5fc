import { Hono } from 'hono';
import { signupProfileSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { validBody } from '../http/helpers.ts';

export const signupProfileRoutes = new Hono<AppEnv>()
  /** PUT /api/signup-profile.php {sexuality?, country?, region? (a code from /api/regions.php), about?}: answers {profile}, the member's summary. */
  .put('/signup-profile.php', async (c) => {
    const ctx = c.get('ctx');
    const input = await validBody(c, signupProfileSchema);
    return c.json({ profile: await ctx.services.profiles.updateSignupFields(ctx.actor, input) });
  });
