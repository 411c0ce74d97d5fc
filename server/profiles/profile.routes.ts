import { profileContracts } from '#common/contracts/profiles.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const profileRoutes = new ApiRoutes()
  /** ?id= a member's profile as the viewer may see it; without id the signed-in member's editable profile. */
  .endpoint(profileContracts.profile, async (c, { query }) => {
    const ctx = c.get('ctx');
    if (query.id === undefined) return c.json({ profile: await ctx.services.profiles.own(ctx.actor) });
    return c.json({ profile: await ctx.services.viewProfile(ctx.actor, query.id, { attributes: true }) });
  })

  /** PUT /api/profile.php: the /profile form. Everything is checked; a bad field changes nothing. */
  .endpoint(profileContracts.update, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json({ profile: await ctx.services.profiles.update(ctx.actor, body) });
  });
