import { viewerId, type Actor } from '../actor.ts';
import type { EventBus } from '../infra/events.ts';
import type { LikesService } from '../likes/likes.service.ts';
import type { ProfileDetail } from '#common/api-types.ts';
import type { DetailOptions, ProfilesService } from './profiles.service.ts';

/**
 * Opening a member's profile, for the API (`GET /api/profile.php?id=`) and the page (`/members/{id}`)
 * alike: the profile as the actor may see it, and a like from that member counts as seen, unless the
 * actor has blocked them (the blocker may open the profile to unblock; that is not reading the like).
 * A member's visit to someone else's profile is announced (`profile.visited`: the "Profile visits" mail).
 */
export function createProfileView(deps: { profiles: ProfilesService; likes: LikesService; events: Pick<EventBus, 'emit'> }) {
  return async function viewProfile(actor: Actor, profileId: number, options: DetailOptions = {}): Promise<ProfileDetail> {
    const viewer = viewerId(actor);
    const profile = await deps.profiles.detail(actor, profileId, options);
    if (viewer && profile.liked_me && !profile.blocked) await deps.likes.markSeen(actor, profileId);
    if (viewer && viewer !== profileId && !profile.blocked) deps.events.emit('profile.visited', { visitorId: viewer, visitedId: profileId });
    return profile;
  };
}
