import { ACTIVE_STEP_MS } from '#common/constants.ts';

/** A member's chat list as built at some moment, and what it was built from. */
export interface CachedChatList {
  /** The member's chat_list_versions stamp read before the list was built. */
  version: number;
  /** The UTC day of the build: the ages in it are those of that day. */
  day: string;
  /** When the build was made, and the first moment an online dot in it goes out (null: none is on). */
  builtAt: number;
  firstOfflineAt: number | null;
  /** chats.php's answer, `{"chats":[…]}`, as the bytes sent. */
  answer: Buffer<ArrayBuffer>;
}

/**
 * Each member's chat list as last built, served again while nothing it shows has changed (docs/decisions/044):
 * the member's list version is the one the request read with its session (database triggers move it on every
 * message, read, hidden chat, block and change to a listed profile, photo or account), it is still the same UTC
 * day, no online dot in it has gone out, and the build is younger than ACTIVE_STEP_MS — a member coming online
 * moves no version, and activity itself is recorded to the minute. Least recently used lists go first once the
 * lists together pass `maxBytes`.
 */
export function createChatListCache({ maxBytes = 4_000_000 }: { maxBytes?: number } = {}) {
  const lists = new Map<number, CachedChatList>();
  let bytes = 0;

  const drop = (userId: number) => {
    const old = lists.get(userId);
    if (!old) return;
    lists.delete(userId);
    bytes -= old.answer.byteLength;
  };

  return {
    /** The list to serve, or undefined when it has to be built again. */
    get(userId: number, version: number, day: string, now: number): Buffer<ArrayBuffer> | undefined {
      const list = lists.get(userId);
      if (!list) return undefined;
      const fresh = list.version === version && list.day === day && now - list.builtAt < ACTIVE_STEP_MS
        && (list.firstOfflineAt === null || now < list.firstOfflineAt);
      drop(userId);
      if (!fresh) return undefined;
      // Most recently used last: eviction takes from the front.
      lists.set(userId, list);
      bytes += list.answer.byteLength;
      return list.answer;
    },

    set(userId: number, list: CachedChatList): void {
      drop(userId);
      if (list.answer.byteLength > maxBytes) return;
      lists.set(userId, list);
      bytes += list.answer.byteLength;
      for (const [oldest] of lists) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },

    get size() {
      return lists.size;
    },
  };
}
