import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { signupProfileSchema } from '#common/schemas.ts';
import { profiles, regions } from '../db/schema.ts';
import type { AppEnv } from '../http/context.ts';
import { requireUserId, validBody } from '../http/helpers.ts';
import { AppError } from '../infra/errors.ts';

export const signupProfileRoutes = new Hono<AppEnv>()
  /**
   * PUT /api/signup-profile.php {sexuality?, country?, region? (a code from /api/regions.php), about?}: the fields the sign-up steps set.
   * A region must belong to the (new or current) country. Answers {profile} (the member's summary).
   */
  .put('/signup-profile.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const input = await validBody(c, signupProfileSchema);
    const db = ctx.services.db;
    const [current] = await db.select({ country: profiles.country }).from(profiles).where(eq(profiles.userId, userId));
    if (!current) throw new AppError(404, 'not_found');
    const country = input.country ?? current.country;
    let regionName: string | null = null;
    if (input.region) {
      const [region] = await db.select({ name: regions.name }).from(regions).where(and(eq(regions.country, country), eq(regions.code, input.region)));
      if (!region) throw new AppError(400, 'region_invalid', {}, { region: 'errors.region_invalid' });
      // Profiles keep the region's name, as the profile editor and the search do.
      regionName = region.name;
    }
    const update: Partial<typeof profiles.$inferInsert> = {};
    if (input.sexuality) update.sexuality = input.sexuality;
    if (input.country) update.country = input.country;
    // A new country without a region clears the old region, which belonged to the old country.
    if (input.region !== undefined) update.region = regionName;
    else if (input.country && input.country !== current.country) update.region = null;
    if (input.about !== undefined) update.about = input.about;
    if (Object.keys(update).length) await db.update(profiles).set(update).where(eq(profiles.userId, userId));
    return c.json({ profile: await ctx.services.profiles.summary(userId, true) });
  });
