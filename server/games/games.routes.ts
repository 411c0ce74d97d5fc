import { gamesContracts } from '#common/contracts/games.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { isAppError } from '../infra/errors.ts';
import { memberRateKey, rateLimit, type C } from '../http/helpers.ts';

/** Game likes count with the other likes: a like/unlike loop is one thing wherever it comes from. */
const limitLikes = (c: C) => {
  const { rateLimits } = c.get('ctx').services;
  return rateLimit(c, [rateLimits.likesPerMinute, rateLimits.likesPerHour], memberRateKey(c));
};

/** The swipe game and the match finder (spec: /swipe-game, /match-finder). */
export const gamesRoutes = new ApiRoutes()
  .endpoint(gamesContracts.swipeDeck, async (c) => c.json(await c.get('ctx').services.games.swipeDeck(c.get('ctx').actor)))

  .endpoint(gamesContracts.swipe, async (c, { body: { profile_id, action } }) => {
    // Counted once the swipe is well-formed: a malformed one does not count against the like limits.
    await limitLikes(c);
    const { services: { games }, actor } = c.get('ctx');
    if (action === 'pass') return c.json(await games.swipePass(actor, profile_id));
    try {
      return c.json(await games.swipeLike(actor, profile_id));
    } catch (error) {
      // The day's likes are used up: Retry-After says when the next one comes (and keeps clients from retrying).
      if (isAppError(error) && error.code === 'like_limit_reached') c.header('Retry-After', String(error.params.retry_after));
      throw error;
    }
  })

  /** Undo the last pass. */
  .endpoint(gamesContracts.swipeUndo, async (c) => c.json(await c.get('ctx').services.games.swipeUndo(c.get('ctx').actor)))

  .endpoint(gamesContracts.matchFinder, async (c) => c.json(await c.get('ctx').services.games.matchFinder(c.get('ctx').actor)))

  .endpoint(gamesContracts.saveMatchPreferences, async (c, { body }) => c.json(await c.get('ctx').services.games.saveMatchPreferences(c.get('ctx').actor, body)));
