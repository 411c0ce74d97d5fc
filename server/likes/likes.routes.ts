import { likesContracts } from '#common/contracts/likes.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { limitedBy, memberRateKey } from '../http/helpers.ts';

/** Likes and unlikes count together, per member: a like/unlike loop is one thing. */
const limitLikes = limitedBy((limits) => [limits.likesPerMinute, limits.likesPerHour], memberRateKey);

/** The like API: like and unlike a member, the new-like overlay, the likes overview. */
export const likesRoutes = new ApiRoutes()
  .endpoint(likesContracts.like, { before: [limitLikes] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.likes.like(ctx.actor, body.profile_id));
  })

  .endpoint(likesContracts.unlike, { before: [limitLikes] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.likes.unlike(ctx.actor, body.profile_id);
    return c.json({ ok: true });
  })

  /** Spec section 7: the profile for the new-like overlay (the newest like not looked at yet), or null. */
  .endpoint(likesContracts.autoLike, async (c) => {
    const ctx = c.get('ctx');
    const profile = await ctx.services.likes.autoLike(ctx.actor);
    return c.json({ profile: profile && { ...profile, main_image: profile.main_image && { ...profile.main_image, match: `/photos/${profile.main_image.filename}` } } });
  })

  .endpoint(likesContracts.likes, async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.likes.overview(ctx.actor));
  });
