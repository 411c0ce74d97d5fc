import { profileContracts } from '#common/contracts/profiles.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const signupProfileRoutes = new ApiRoutes()
  /** PUT /api/signup-profile.php {sexuality?, country?, region? (a code from /api/regions.php), about?}: answers {profile}, the member's summary. */
  .endpoint(profileContracts.signupFields, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json({ profile: await ctx.services.profiles.updateSignupFields(ctx.actor, body) });
  });
