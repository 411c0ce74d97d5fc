import { and, desc, eq, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { ONLINE_MINUTES } from '#common/constants.ts';
import type { Db } from '../db/client.ts';
import { conversationMembers, conversations, messages, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { notBlockedWith } from '../accounts/contact-rules.ts';
import { createChatListCache } from './chat-list-cache.ts';

/**
 * A member's chat list as chats.php's answer, its JSON built by PostgreSQL and kept while it holds
 * (chat-list-cache.ts).
 */
export function createChatList(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  // A member's conversations with the other member's profile and the last message, in one statement
  // (the last message through a lateral join, one index probe each); prepared once, as every chat page asks.
  // Each row comes back as the JSON of its ChatSummary, built by PostgreSQL: the list is the answer of every
  // chats.php request, and building it there spares the server mapping rows, parsing and formatting dates and
  // serialising the answer again (docs/decisions/024). The rules are toProfileSummary's (profiles.service.ts):
  // the age on the service clock's UTC date, online within ONLINE_MINUTES unless invisible, an approved main
  // photo, a 140-character preview of the last message, timestamps as toISOString writes them.
  const viewer = sql.placeholder('userId');
  const today = sql.placeholder('today');
  const onlineSince = sql.placeholder('onlineSince');
  const other = sql<number>`case when ${conversations.userLow} = ${viewer} then ${conversations.userHigh} else ${conversations.userLow} end`;
  const lastMessage = db
    .select({ kind: messages.kind, body: messages.body, senderId: messages.senderId, createdAt: messages.createdAt })
    .from(messages)
    // A message the viewer's word filter hid is not theirs to see.
    .where(and(eq(messages.conversationId, conversations.id), isNull(messages.removedAt), or(eq(messages.filtered, false), eq(messages.senderId, viewer))))
    .orderBy(desc(messages.id))
    .limit(1)
    .as('last_message');
  const iso = (column: AnyColumn | SQL.Aliased | SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const summaryJson = sql<string>`json_build_object(
    'conversation', json_build_object('id', ${conversations.id}, 'last_message_at', ${iso(conversations.lastMessageAt)}),
    'profile', json_build_object(
      'id', ${profiles.userId}, 'name', ${profiles.name},
      'age', extract(year from ${today}::date)::int - extract(year from ${profiles.birthDate})::int
        - (to_char(${today}::date, 'MMDD') < to_char(${profiles.birthDate}, 'MMDD'))::int,
      'gender', ${profiles.gender}, 'country', ${profiles.country}, 'region', ${profiles.region},
      'status', ${profiles.status}, 'fictional', ${profiles.fictional},
      'online', coalesce(${users.status} <> 'deleted' and not ${users.invisible} and ${users.lastActiveAt} > ${onlineSince}::timestamptz, false),
      'main_image', case when ${photos.status} = 'active' and ${users.status} <> 'deleted' then json_build_object(
        'filename', ${photos.filename}, 'thumb_filename', ${photos.thumbFilename}, 'status', ${photos.status}) end),
    'num_unread_messages', ${conversationMembers.unreadCount},
    'left', ${users.status} = 'deleted',
    'last_message', case when ${lastMessage.kind} is not null then json_build_object(
      'kind', ${lastMessage.kind}, 'text', left(${lastMessage.body}, 140), 'from_me', ${lastMessage.senderId} = ${viewer},
      'created_at', ${iso(lastMessage.createdAt)}) end
  )::text`;
  // When the chat's online dot goes out (null: it is not on), so that a kept copy of the list is not served past it.
  const offlineAt = sql<number | null>`case when ${users.status} <> 'deleted' and not ${users.invisible} and ${users.lastActiveAt} > ${onlineSince}::timestamptz
    then extract(epoch from ${users.lastActiveAt}) * 1000 + ${ONLINE_MINUTES * 60_000}::int end`.mapWith(Number);
  const listQuery = db
    .select({ json: summaryJson, offlineAt })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .innerJoin(profiles, eq(profiles.userId, other))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .leftJoinLateral(lastMessage, sql`true`)
    .where(and(
      // A partner who deleted their account stays in the list, marked as gone ('left'): the conversation is the
      // member's own, paid for, and stays readable (issue 29).
      eq(conversationMembers.userId, viewer), eq(conversationMembers.hidden, false),
      // A block hides the conversation from both members' lists.
      notBlockedWith(viewer, profiles.userId),
    ))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .prepare('chat_list');

  const listCache = createChatListCache();

  /**
   * chats.php's answer, the member's chat list as `{"chats":[ChatSummary…]}`, encoded once. With the version of their
   * list that the request read (RequestContext.chatListVersion), a copy built at that version is served again while it
   * holds (chat-list-cache.ts): sent as these bytes, with nothing to copy or encode again per request.
   */
  return async function chatsAnswer(userId: number, version?: number): Promise<Buffer<ArrayBuffer>> {
    const now = clock();
    const day = now.toISOString().slice(0, 10);
    const kept = version === undefined ? undefined : listCache.get(userId, version, day, now.getTime());
    if (kept !== undefined) return kept;
    const rows = await listQuery.execute({ userId, today: day, onlineSince: new Date(now.getTime() - ONLINE_MINUTES * 60_000).toISOString() });
    const answer = Buffer.from(`{"chats":[${rows.map((r) => r.json).join(',')}]}`);
    if (version !== undefined) {
      const offline = rows.flatMap((r) => (r.offlineAt === null ? [] : [r.offlineAt]));
      listCache.set(userId, { version, day, builtAt: now.getTime(), firstOfflineAt: offline.length ? Math.min(...offline) : null, answer });
    }
    return answer;
  };
}
