import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { MODERATORS, requireMember, requireStaff, type Actor } from '../actor.ts';
import type { ChatMessage, ChatSummary, Gift, ProfileDetail } from '#common/api-types.ts';
import { CHAT_HISTORY_LIMIT, matchesWordFilter } from '#common/chat.ts';
import { FREE_CONVERSATIONS, ONLINE_MINUTES } from '#common/constants.ts';
import type { Db, Tx } from '../db/client.ts';
import { blocks, chatPhotos, conversationMembers, conversations, creditLedger, gifts, messages, photos, profiles, spendCaps, users } from '../db/schema.ts';
import type { PhotoStorage } from '../infra/storage.ts';
import type { SharedCache } from '../infra/shared-cache.ts';
import { processPhoto } from '../photos/photos.service.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { LiveBus } from '../infra/live-bus.ts';
import { notBlockedWith, type ContactRules } from '../accounts/contact-rules.ts';
import { assertWithinSpendCap } from '../credits/spend-cap.ts';
import type { ProfilesService } from '../profiles/profiles.service.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { executePrepared } from '../db/prepared.ts';
import { createChatListCache } from './chat-list-cache.ts';

type MessageRow = typeof messages.$inferSelect;
type ChatPhotoRow = typeof chatPhotos.$inferSelect;

export const giftImage = (slug: string) => `/gifts/${slug}.svg`;
const toGift = (row: { id: number; slug: string }): Gift => ({ id: row.id, slug: row.slug, image: giftImage(row.slug) });

/** What a message row needs to be shown: its gift and photo, looked up once per page of messages. */
interface Attachments {
  gifts: Map<number, { id: number; slug: string }>;
  photos: Map<number, ChatPhotoRow>;
}

/** `readUpTo`: the other member's last read message when both show read receipts, else null. */
function toMessage(row: MessageRow, viewerId: number, attachments: Attachments, readUpTo: number | null = null): ChatMessage {
  const fromMe = row.senderId === viewerId;
  const gift = row.giftId ? attachments.gifts.get(row.giftId) : undefined;
  const photo = row.chatPhotoId ? attachments.photos.get(row.chatPhotoId) : undefined;
  return {
    id: row.id,
    conversation_id: row.conversationId,
    from_me: fromMe,
    kind: row.kind,
    text: row.body,
    created_at: row.createdAt.toISOString(),
    ...(gift ? { gift: toGift(gift) } : {}),
    ...(row.kind === 'photo'
      ? { photo: photo && photo.status !== 'rejected' ? { filename: photo.filename, thumb_filename: photo.thumbFilename, width: photo.width, height: photo.height } : null }
      : {}),
    ...(fromMe && row.filtered ? { filtered: true } : {}),
    ...(fromMe && readUpTo !== null ? { read: row.id <= readUpTo } : {}),
  };
}

/** What is sent: a text, a gift from the catalogue, or a photo (its uploaded bytes). */
export type MessageContent = { kind: 'text'; text: string } | { kind: 'gift'; giftId: number } | { kind: 'photo'; photo: Buffer };

export interface SendInput {
  recipientId: number;
  idempotencyKey: string;
  /** Credits this message costs its sender (chatCosts of common/chat.ts). */
  cost: number;
  /** The site's free messages for members who have not bought credits yet (0: none); texts only. */
  freeMessages?: number;
}

const LEDGER_REASON = { text: 'message', gift: 'gift', photo: 'chat_photo' } as const;

/** The same text to this many other members within an hour is refused (copy-paste spam). */
export const SAME_TEXT_RECIPIENTS = 5;
const SAME_TEXT_WINDOW_MS = 3_600_000;

/** How long a "looking at this conversation" report lasts; open tabs repeat it more often than this. */
export const VIEWING_TTL_MS = 45_000;

export function createChatService(deps: {
  db: Db; clock: Clock; events: EventBus; contactRules: ContactRules; live: LiveBus; storage: PhotoStorage;
  /** Shared by every instance: which conversation each member is looking at. */
  presence: SharedCache;
  /** Opening a conversation from a profile: the profile as its viewer may see it. */
  profiles: Pick<ProfilesService, 'detail'>;
}) {
  const { db, clock, storage } = deps;

  async function attachmentsOf(rows: MessageRow[]): Promise<Attachments> {
    const giftIds = [...new Set(rows.flatMap((r) => (r.giftId ? [r.giftId] : [])))];
    const photoIds = [...new Set(rows.flatMap((r) => (r.chatPhotoId ? [r.chatPhotoId] : [])))];
    const [giftRows, photoRows] = await Promise.all([
      giftIds.length ? db.select({ id: gifts.id, slug: gifts.slug }).from(gifts).where(inArray(gifts.id, giftIds)) : [],
      photoIds.length ? db.select().from(chatPhotos).where(inArray(chatPhotos.id, photoIds)) : [],
    ]);
    return { gifts: new Map(giftRows.map((g) => [g.id, g])), photos: new Map(photoRows.map((p) => [p.id, p])) };
  }

  async function messageOut(row: MessageRow, viewerId: number): Promise<ChatMessage> {
    return toMessage(row, viewerId, await attachmentsOf([row]));
  }

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
    .where(and(eq(messages.conversationId, conversations.id), or(eq(messages.filtered, false), eq(messages.senderId, viewer))))
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
      'online', coalesce(not ${users.invisible} and ${users.lastActiveAt} > ${onlineSince}::timestamptz, false),
      'main_image', case when ${photos.status} = 'active' then json_build_object(
        'filename', ${photos.filename}, 'thumb_filename', ${photos.thumbFilename}, 'status', ${photos.status}) end),
    'num_unread_messages', ${conversationMembers.unreadCount},
    'last_message', case when ${lastMessage.kind} is not null then json_build_object(
      'kind', ${lastMessage.kind}, 'text', left(${lastMessage.body}, 140), 'from_me', ${lastMessage.senderId} = ${viewer},
      'created_at', ${iso(lastMessage.createdAt)}) end
  )::text`;
  // When the chat's online dot goes out (null: it is not on), so that a kept copy of the list is not served past it.
  const offlineAt = sql<number | null>`case when not ${users.invisible} and ${users.lastActiveAt} > ${onlineSince}::timestamptz
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
      eq(conversationMembers.userId, viewer), eq(conversationMembers.hidden, false), ne(users.status, 'deleted'),
      // A block hides the conversation from both members' lists.
      notBlockedWith(viewer, profiles.userId),
    ))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .prepare('chat_list');

  const listCache = createChatListCache();

  /**
   * The member's chat list as a JSON array of ChatSummary. With the version of their list that the request read
   * (RequestContext.chatListVersion), a copy built at that version is served again while it holds (chat-list-cache.ts).
   */
  async function listJson(userId: number, version?: number): Promise<string> {
    const now = clock();
    const day = now.toISOString().slice(0, 10);
    const kept = version === undefined ? undefined : listCache.get(userId, version, day, now.getTime());
    if (kept !== undefined) return kept;
    const rows = await listQuery.execute({ userId, today: day, onlineSince: new Date(now.getTime() - ONLINE_MINUTES * 60_000).toISOString() });
    const json = `[${rows.map((r) => r.json).join(',')}]`;
    if (version !== undefined) {
      const offline = rows.flatMap((r) => (r.offlineAt === null ? [] : [r.offlineAt]));
      listCache.set(userId, { version, day, builtAt: now.getTime(), firstOfflineAt: offline.length ? Math.min(...offline) : null, json });
    }
    return json;
  }

  /**
   * One send in one statement: the charge (the balance's conditional update and its ledger row, as
   * spendCredits books them), the pair's conversation and both members' rows (unread count, a hidden
   * chat shown again), the chat photo's row, the message and the outbox rows of its notifications. When
   * the balance does not cover `cost` nothing is written and there is no row.
   */
  async function sendStatement(q: Db | Tx, s: {
    senderId: number; recipientId: number; content: MessageContent; text: string; filtered: boolean; cost: number; idempotencyKey: string;
    photo: { filename: string; thumbFilename: string; width: number; height: number } | null; now: Date;
  }) {
    const { senderId, recipientId, content, filtered, cost, photo, now } = s;
    const [low, high] = senderId < recipientId ? [senderId, recipientId] : [recipientId, senderId];
    const giftId = content.kind === 'gift' ? content.giftId : null;
    const payload = sql`jsonb_build_object('messageId', m.id, 'conversationId', m.conversation_id, 'senderId', ${senderId}::int,
      'recipientId', ${recipientId}::int, 'kind', ${content.kind}::text, 'text', ${s.text}::text)`;
    const outboxRows = filtered ? null : deps.events.recordSql('message.sent', payload, sql`m`);
    const [row] = await executePrepared<{ id: number | string; conversation_id: number | string; chat_photo_id: number | string | null; spent: number | null; balance: number | null }>(q, 'chat_send', sql`
      with debit as (
        update ${users} set credits = credits - ${cost}::int where id = ${senderId} and ${cost}::int > 0 and credits >= ${cost}::int returning credits
      ), conv as (
        insert into ${conversations} (user_low, user_high, created_at, last_message_at)
        select ${low}::int, ${high}::int, ${now}::timestamptz, ${now}::timestamptz where ${cost}::int = 0 or exists (select 1 from debit)
        on conflict (user_low, user_high) do update set last_message_at = excluded.last_message_at
        returning id
      ), members as (
        insert into ${conversationMembers} (conversation_id, user_id, hidden, unread_count)
        select conv.id, v.user_id, v.hidden, v.unread
        from conv, (values (${senderId}::int, false, 0), (${recipientId}::int, ${filtered}::boolean, ${filtered ? 0 : 1}::int)) as v(user_id, hidden, unread)
        on conflict (conversation_id, user_id) do update
          set hidden = ${conversationMembers}.hidden and excluded.hidden, unread_count = ${conversationMembers}.unread_count + excluded.unread_count
      ), photo as (
        insert into ${chatPhotos} (conversation_id, sender_id, filename, thumb_filename, width, height, status, created_at)
        select conv.id, ${senderId}::int, ${photo?.filename ?? null}::text, ${photo?.thumbFilename ?? null}::text, ${photo?.width ?? null}::int,
          ${photo?.height ?? null}::int, 'active', ${now}::timestamptz
        from conv where ${photo !== null}::boolean
        returning id
      ), m as (
        insert into ${messages} (conversation_id, sender_id, kind, body, gift_id, chat_photo_id, filtered, credits_spent, idempotency_key, created_at)
        select conv.id, ${senderId}::int, ${content.kind}::text, ${s.text}::text, ${giftId}::int, (select id from photo), ${filtered}::boolean,
          ${cost}::int, ${s.idempotencyKey}::text, ${now}::timestamptz
        from conv
        returning id, conversation_id, chat_photo_id
      ), ledger as (
        insert into ${creditLedger} (user_id, delta, balance_after, reason, reference, created_at)
        select ${senderId}::int, ${-cost}::int, debit.credits, ${LEDGER_REASON[content.kind]}::text, m.id::text, ${now}::timestamptz from debit, m
      )${outboxRows ? sql`, notify as (${outboxRows})` : sql``}
      select m.id, m.conversation_id, m.chat_photo_id, (select credits from debit) as spent,
        (select credits from ${users} where id = ${senderId}) as balance
      from m`);
    return row;
  }

  const sameContent = (row: MessageRow, content: MessageContent) =>
    row.kind === content.kind
    && (content.kind !== 'text' || row.body === content.text.trim())
    && (content.kind !== 'gift' || row.giftId === content.giftId);

  /**
   * The message this key already sent, if any. A retry must be the same request: the same key with
   * another recipient or content is refused rather than answered with the first message.
   */
  async function existingSend(senderId: number, key: string, recipientId: number, content: MessageContent) {
    const [found] = await db
      .select({ row: messages, low: conversations.userLow, high: conversations.userHigh })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(messages.senderId, senderId), eq(messages.idempotencyKey, key)));
    if (!found) return undefined;
    const sentTo = found.low === senderId ? found.high : found.low;
    if (sentTo !== recipientId || !sameContent(found.row, content)) throw new AppError(422, 'idempotency_key_reused');
    return found.row;
  }

  /**
   * Spec section 6 for members who have not bought credits yet: they write in at most
   * FREE_CONVERSATIONS conversations, and their first `freeMessages` messages cost nothing. Holds the
   * sender's row, so parallel sends cannot use one free message twice. Returns whether this one is free.
   */
  async function useFreeMessage(tx: Tx, senderId: number, recipientId: number, freeMessages: number): Promise<boolean> {
    const [sender] = await tx.select({ paid: users.paidUser }).from(users).where(eq(users.id, senderId)).for('update');
    if (!sender || sender.paid) return false;
    const convId = await findWith(senderId, recipientId, tx);
    const written = await tx.selectDistinct({ id: messages.conversationId }).from(messages).where(eq(messages.senderId, senderId));
    if (!written.some((w) => w.id === convId) && written.length >= FREE_CONVERSATIONS) {
      throw new AppError(403, 'free_conversation_limit', { count: FREE_CONVERSATIONS });
    }
    return (await freeMessagesUsed(tx, senderId)) < freeMessages;
  }

  const freeMessagesUsed = (q: Db | Tx, senderId: number) =>
    q.$count(messages, and(eq(messages.senderId, senderId), eq(messages.kind, 'text'), eq(messages.creditsSpent, 0), eq(messages.filtered, false)));

  /** Stores a chat photo's files (metadata stripped, re-encoded) before the transaction that sends it. */
  async function storePhoto(input: Buffer) {
    const processed = await processPhoto(input);
    const base = randomBytes(12).toString('base64url');
    const names = { filename: `${base}.webp`, thumbFilename: `${base}_t.webp` };
    await storage.put(names.filename, processed.original, 'image/webp');
    await storage.put(names.thumbFilename, processed.thumb, 'image/webp');
    return { ...names, width: processed.width, height: processed.height };
  }
  const removeFiles = async (names: { filename: string; thumbFilename: string }) => {
    await storage.delete(names.filename).catch(() => undefined);
    await storage.delete(names.thumbFilename).catch(() => undefined);
  };

  /**
   * What a send checks before its transaction, in one statement: whether this idempotency key already
   * sent a message, the recipient (account, profile, word filter), a block either way, whether the
   * sender has bought credits (paid_user is never taken back), and for a text how many other members
   * got the same text from the sender within the hour (copy-paste spam).
   */
  async function sendChecks(senderId: number, recipientId: number, key: string, text: string | null) {
    const since = new Date(clock().getTime() - SAME_TEXT_WINDOW_MS);
    const sameText = text === null ? sql`0` : sql`(
      select count(distinct case when c.user_low = ${senderId} then c.user_high else c.user_low end)
      from ${messages} m join ${conversations} c on c.id = m.conversation_id
      where m.sender_id = ${senderId} and m.body = ${text} and m.created_at > ${since}
        and (case when c.user_low = ${senderId} then c.user_high else c.user_low end) <> ${recipientId})`;
    const [row] = await executePrepared<{
      existing: boolean; status: string | null; profile_status: string | null; word_filter: string[] | null;
      blocked: boolean; sender_paid: boolean | null; capped: boolean; same_text: number | string;
    }>(db, 'chat_send_checks', sql`
      select
        exists (select 1 from ${messages} where sender_id = ${senderId} and idempotency_key = ${key}) as existing,
        u.status, p.status as profile_status, u.word_filter,
        exists (select 1 from ${blocks} where (blocker_id = ${senderId} and blocked_id = ${recipientId}) or (blocker_id = ${recipientId} and blocked_id = ${senderId})) as blocked,
        (select paid_user from ${users} where id = ${senderId}) as sender_paid,
        exists (select 1 from ${spendCaps} where user_id = ${senderId}) as capped,
        ${sameText}::int as same_text
      from (select 1) as one
      left join ${users} u on u.id = ${recipientId}
      left join ${profiles} p on p.user_id = u.id`);
    return { ...row, same_text: Number(row.same_text) };
  }

  /** The pair's conversation, if there is one. */
  async function findWith(userId: number, otherId: number, q: Db | Tx = db): Promise<number | null> {
    const [low, high] = userId < otherId ? [userId, otherId] : [otherId, userId];
    const [conv] = await q.select({ id: conversations.id }).from(conversations)
      .where(and(eq(conversations.userLow, low), eq(conversations.userHigh, high)));
    return conv?.id ?? null;
  }

  async function membership(userId: number, convId: number) {
    const [row] = await db
      .select({
        otherId: sql<number>`case when ${conversations.userLow} = ${userId} then ${conversations.userHigh} else ${conversations.userLow} end`,
        lastReadId: conversationMembers.lastReadId,
      })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      .where(and(eq(conversationMembers.userId, userId), eq(conversationMembers.conversationId, convId)));
    return row;
  }

  return {
    /**
     * Sends a text, a gift or a photo and charges its credits in one transaction with its ledger row.
     * The client retries up to 5 times, so the idempotency key makes a retried send return the first
     * result without charging again. A text the recipient's word filter matches is stored for the
     * sender only, costs nothing and notifies no one.
     */
    async send(actor: Actor, input: SendInput & { content: MessageContent; maxLength: number }): Promise<{ message: ChatMessage; credits: number; duplicate: boolean; freeMessagesLeft?: number }> {
      const { userId: senderId } = requireMember(actor);
      const { recipientId, idempotencyKey, content } = input;
      const text = content.kind === 'text' ? content.text.trim() : '';
      const checks = await sendChecks(senderId, recipientId, idempotencyKey, content.kind === 'text' ? text : null);
      if (checks.existing) {
        const previous = await existingSend(senderId, idempotencyKey, recipientId, content);
        if (previous) return { message: await messageOut(previous, senderId), credits: await balance(senderId), duplicate: true };
      }
      if (content.kind === 'text' && !text) throw new AppError(400, 'message_empty');
      if (text.length > input.maxLength) throw new AppError(400, 'message_too_long', { max: input.maxLength });
      if (senderId === recipientId) throw new AppError(400, 'cannot_message_self');
      if (!checks.status || !checks.profile_status || checks.status === 'deleted' || checks.profile_status === 'disabled') throw notFound();
      deps.contactRules.assertMessageAllowed({ blocked: checks.blocked, recipientStatus: checks.status });
      if (checks.same_text >= SAME_TEXT_RECIPIENTS) throw new AppError(429, 'same_text_throttled', { count: SAME_TEXT_RECIPIENTS });
      if (content.kind === 'gift') {
        const [gift] = await db.select({ id: gifts.id }).from(gifts).where(and(eq(gifts.id, content.giftId), eq(gifts.active, true)));
        if (!gift) throw new AppError(404, 'gift_not_found');
      }
      const filtered = content.kind === 'text' && matchesWordFilter(text, checks.word_filter ?? []);
      const photo = content.kind === 'photo' ? await storePhoto(content.photo) : null;
      const send = async (q: Db | Tx, cost: number) => {
        const now = clock();
        const row = await sendStatement(q, { senderId, recipientId, content, text, filtered, cost, idempotencyKey, photo, now });
        if (!row) throw new AppError(402, 'insufficient_credits', { needed: cost });
        const message: MessageRow = {
          id: Number(row.id), conversationId: Number(row.conversation_id), senderId, kind: content.kind, body: text,
          giftId: content.kind === 'gift' ? content.giftId : null, chatPhotoId: row.chat_photo_id === null ? null : Number(row.chat_photo_id),
          filtered, creditsSpent: cost, idempotencyKey, createdAt: now,
        };
        return { row: message, credits: Number(cost > 0 ? row.spent : row.balance), now };
      };
      try {
        // A member who has bought credits and set no spend cap sends in one statement, which is atomic
        // by itself. The free allowance (a lock on the sender and counting) and a spend cap (checked after
        // the charge is booked) need a transaction around it.
        const result = checks.sender_paid && !checks.capped
          ? await send(db, filtered ? 0 : input.cost)
          : await db.transaction(async (tx) => {
            const free = content.kind === 'text' && !checks.sender_paid && (await useFreeMessage(tx, senderId, recipientId, input.freeMessages ?? 0));
            const cost = free || filtered ? 0 : input.cost;
            const sent = await send(tx, cost);
            if (cost > 0 && checks.capped) await assertWithinSpendCap(tx, senderId, cost, sent.now, { booked: true });
            return sent;
          });
        const message = await messageOut(result.row, senderId);
        if (!filtered) {
          deps.events.emit('message.sent', { messageId: message.id, conversationId: message.conversation_id, senderId, recipientId, kind: content.kind, text });
        } else {
          // The sender's other tabs show it too; the recipient learns nothing.
          await deps.live.publish(senderId, { type: 'message', conversation_id: message.conversation_id, profile_id: recipientId });
        }
        return { message, credits: result.credits, duplicate: false, ...(checks.sender_paid ? { freeMessagesLeft: 0 } : {}) };
      } catch (error) {
        if (photo) await removeFiles(photo);
        // The same key sent twice at once: the unique index let one through; answer with that one.
        if (isUniqueViolation(error)) {
          const first = await existingSend(senderId, idempotencyKey, recipientId, content);
          if (first) return { message: await messageOut(first, senderId), credits: await balance(senderId), duplicate: true };
        }
        throw error;
      }
    },

    /** The gift catalogue, in its order. */
    async gifts(): Promise<Gift[]> {
      const rows = await db.select({ id: gifts.id, slug: gifts.slug }).from(gifts).where(eq(gifts.active, true)).orderBy(asc(gifts.sort), asc(gifts.id));
      return rows.map(toGift);
    },

    /**
     * May this viewer load this chat photo file? Only the conversation's two members, while neither
     * blocked the other and moderation has not rejected it.
     */
    async photoAccess(file: string, viewerId: number | null): Promise<'private' | 'denied' | 'unknown'> {
      const [row] = await db.select({ status: chatPhotos.status, low: conversations.userLow, high: conversations.userHigh })
        .from(chatPhotos).innerJoin(conversations, eq(conversations.id, chatPhotos.conversationId))
        .where(or(eq(chatPhotos.filename, file), eq(chatPhotos.thumbFilename, file))).limit(1);
      if (!row) return 'unknown';
      if (!viewerId || (viewerId !== row.low && viewerId !== row.high) || row.status === 'rejected') return 'denied';
      const other = viewerId === row.low ? row.high : row.low;
      return (await deps.contactRules.blockedBetween(viewerId, other)) ? 'denied' : 'private';
    },

    /** Operators: chat photos no moderator has looked at yet (they show at once and are reviewed afterwards). */
    async pendingPhotos(actor: Actor) {
      requireStaff(actor, MODERATORS);
      const rows = await db.select().from(chatPhotos).where(and(eq(chatPhotos.reviewed, false), ne(chatPhotos.status, 'rejected')))
        .orderBy(asc(chatPhotos.createdAt), asc(chatPhotos.id));
      return rows.map((r) => ({ id: r.id, user_id: r.senderId, filename: r.filename, thumb_filename: r.thumbFilename, created_at: r.createdAt.toISOString() }));
    },

    /** Operators: approve or reject a chat photo; a rejected one is gone for both members and its files are deleted. */
    async moderatePhoto(actor: Actor, photoId: number, decision: 'approve' | 'reject'): Promise<{ id: number; status: 'active' | 'rejected' }> {
      requireStaff(actor, MODERATORS);
      const status = decision === 'approve' ? 'active' as const : 'rejected' as const;
      const [row] = await db.update(chatPhotos).set({ status, reviewed: true }).where(eq(chatPhotos.id, photoId)).returning();
      if (!row) throw notFound();
      if (status === 'rejected') await removeFiles(row);
      return { id: row.id, status };
    },

    /** `version`: the member's chat-list version read with this request's session, when it may be served from the copy. */
    async list(actor: Actor, version?: number): Promise<ChatSummary[]> {
      return JSON.parse(await listJson(requireMember(actor).userId, version)) as ChatSummary[];
    },

    /** `list` as the JSON text of the array, for chats.php to send as it is. */
    async listJson(actor: Actor, version?: number): Promise<string> {
      return listJson(requireMember(actor).userId, version);
    },

    /**
     * The conversation's messages, oldest first. Opening a conversation sets its unread count to 0 and
     * marks the other member's messages read; when both members show read receipts, the other member's
     * open tabs learn of it, and their messages carry `read`.
     */
    async read(actor: Actor, convId: number, afterId = 0): Promise<{ profileId: number; truncated: boolean; messages: ChatMessage[] }> {
      const { userId } = requireMember(actor);
      const member = await membership(userId, convId);
      if (!member || (await deps.contactRules.blockedBetween(userId, member.otherId))) throw notFound();
      const rows = await db.select().from(messages)
        .where(and(eq(messages.conversationId, convId), gt(messages.id, afterId), or(eq(messages.filtered, false), eq(messages.senderId, userId))))
        .orderBy(desc(messages.id)).limit(CHAT_HISTORY_LIMIT + 1);
      // More than a page: the oldest are left out, and the chat says so (the history limit).
      const truncated = rows.length > CHAT_HISTORY_LIMIT;
      if (truncated) rows.pop();
      const [newest] = await db.select({ id: sql<number>`coalesce(max(${messages.id}), 0)`.mapWith(Number) }).from(messages)
        .where(and(eq(messages.conversationId, convId), eq(messages.senderId, member.otherId), eq(messages.filtered, false)));
      const advanced = await db.update(conversationMembers).set({ unreadCount: 0, lastReadId: sql`greatest(${conversationMembers.lastReadId}, ${newest.id})` })
        .where(and(eq(conversationMembers.conversationId, convId), eq(conversationMembers.userId, userId)))
        .returning({ lastReadId: conversationMembers.lastReadId });
      const receipts = await db.select({ id: users.id, on: users.readReceipts, lastReadId: conversationMembers.lastReadId }).from(users)
        .innerJoin(conversationMembers, and(eq(conversationMembers.userId, users.id), eq(conversationMembers.conversationId, convId)))
        .where(inArray(users.id, [userId, member.otherId]));
      const both = receipts.length === 2 && receipts.every((r) => r.on);
      const other = receipts.find((r) => r.id === member.otherId);
      if (both && newest.id > 0 && advanced[0] && member.lastReadId < newest.id) {
        deps.events.emit('messages.read', { readerId: userId, otherId: member.otherId, conversationId: convId });
      }
      const attachments = await attachmentsOf(rows);
      return {
        profileId: member.otherId,
        truncated: truncated && afterId === 0,
        messages: rows.reverse().map((m) => toMessage(m, userId, attachments, both ? other?.lastReadId ?? 0 : null)),
      };
    },

    /** Free messages a member who has not bought credits yet still has (0 for paying members). */
    async freeMessagesLeft(actor: Actor, freeMessages: number): Promise<number> {
      const { userId } = requireMember(actor);
      const [u] = await db.select({ paid: users.paidUser }).from(users).where(eq(users.id, userId));
      if (!u || u.paid) return 0;
      return Math.max(0, freeMessages - (await freeMessagesUsed(db, userId)));
    },

    /** Tells the recipient's open tabs that this member is typing to them (nothing is stored). */
    async typing(actor: Actor, recipientId: number): Promise<void> {
      const { userId: senderId } = requireMember(actor);
      if (senderId === recipientId) throw new AppError(400, 'cannot_message_self');
      await deps.contactRules.assertCanMessage(senderId, recipientId);
      await deps.live.publish(recipientId, { type: 'typing', profile_id: senderId });
    },

    /**
     * The conversation with a member, opened from their profile (the API's `?profile=` and the
     * conversation pages alike): the profile as the actor may see it (a hidden or blocked one is "not
     * found"), and the conversation's messages, read as by `read`; no conversation yet: no messages.
     */
    async openWith(actor: Actor, profileId: number, afterId = 0): Promise<{ profile: ProfileDetail; conversationId: number | null; truncated: boolean; messages: ChatMessage[] }> {
      const { userId } = requireMember(actor);
      const profile = await deps.profiles.detail(actor, profileId);
      const convId = await findWith(userId, profileId);
      if (!convId) return { profile, conversationId: null, truncated: false, messages: [] };
      const { truncated, messages: page } = await this.read(actor, convId, afterId);
      return { profile, conversationId: convId, truncated, messages: page };
    },

    /** The conversation this member's screen shows now (null: none), as their open tab reports it. */
    async setViewing(actor: Actor, convId: number | null): Promise<void> {
      const { userId } = requireMember(actor);
      const key = `chat:viewing:${userId}`;
      if (convId === null) return deps.presence.delete(key);
      if (!(await membership(userId, convId))) throw notFound();
      await deps.presence.set(key, convId, VIEWING_TTL_MS);
    },

    /**
     * Whether a new message needs no push or e-mail: its recipient is looking at the conversation, or
     * has already read it (an open conversation marks what it shows as read).
     */
    async seenOrViewing(e: { recipientId: number; conversationId: number; messageId: number }): Promise<boolean> {
      if ((await deps.presence.get<number>(`chat:viewing:${e.recipientId}`)) === e.conversationId) return true;
      const [row] = await db.select({ lastReadId: conversationMembers.lastReadId }).from(conversationMembers)
        .where(and(eq(conversationMembers.conversationId, e.conversationId), eq(conversationMembers.userId, e.recipientId)));
      return (row?.lastReadId ?? 0) >= e.messageId;
    },

    /** Removes every conversation with this profile from the member's list (spec: removing by profile id). */
    async removeWith(actor: Actor, profileId: number): Promise<number[]> {
      const { userId } = requireMember(actor);
      const convId = await findWith(userId, profileId);
      if (!convId) throw notFound();
      await this.remove(actor, convId);
      return [convId];
    },

    /** Removes the conversation from this member's list; the other member keeps theirs. */
    async remove(actor: Actor, convId: number): Promise<void> {
      const { userId } = requireMember(actor);
      const member = await membership(userId, convId);
      if (!member) throw notFound();
      await db.update(conversationMembers).set({ hidden: true, unreadCount: 0 })
        .where(and(eq(conversationMembers.conversationId, convId), eq(conversationMembers.userId, userId)));
    },
  };

  async function balance(userId: number, q: Db | Tx = db): Promise<number> {
    const [u] = await q.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return u?.credits ?? 0;
  }
}

export type ChatService = ReturnType<typeof createChatService>;

