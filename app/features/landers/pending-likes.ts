import { MAX_PENDING_LIKES } from '#common/constants.ts';

/**
 * Likes a visitor gives on the swipe lander before having an account. Nothing is stored on the server for a visitor:
 * the ids wait in this browser and go along with the sign-up (pending_likes), where the like use case gives them as the
 * new member's likes. Kept at most MAX_PENDING_LIKES, the newest last.
 */
const KEY = 'pending-likes';

export function readPendingLikes(): number[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isSafeInteger(v) && v > 0).slice(-MAX_PENDING_LIKES) : [];
  } catch {
    // Storage refused (private mode) or damaged: no pending likes.
    return [];
  }
}

export function addPendingLike(id: number): void {
  try {
    const ids = [...readPendingLikes().filter((v) => v !== id), id].slice(-MAX_PENDING_LIKES);
    window.localStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    // Without storage the like is lost with the page; the lander still invites to sign up.
  }
}

/** After a sign-up took them along. */
export function clearPendingLikes(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}
