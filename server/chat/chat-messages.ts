import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ChatMessage, Gift, ProfileDetail } from '#common/api-types.ts';
import { CHAT_HISTORY_LIMIT } from '#common/chat.ts';
import { requireMember, type Actor } from '../actor.ts';
import type { Db, Tx } from '../db/client.ts';
import { chatPhotos, conversationMembers, conversations, gifts, messages, users } from '../db/schema.ts';
import { notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { ContactRules } from '../accounts/contact-rules.ts';
import type { ProfilesService } from '../profiles/profiles.service.ts';

export type MessageRow = typeof messages.$inferSelect;
type ChatPhotoRow = typeof chatPhotos.$inferSelect;

/** What a gift shows: a built-in one's name is the translation gifts.<slug> and its image ships with the app. */
export type GiftRow = { id: number; slug: string; names: Record<string, string>; image: string | null; credits: number | null };
/** A gift's columns as the chat shows it. */
export const giftColumns = { id: gifts.id, slug: gifts.slug, names: gifts.names, image: gifts.image, credits: gifts.credits };
/** Where a gift made in the console serves its image from (server/chat/gift-images.routes.ts). */
export const GIFT_IMAGE_PATH = '/gift-images';
export const toGift = (row: GiftRow): Gift => ({
  id: row.id, slug: row.slug, image: row.image ? `${GIFT_IMAGE_PATH}/${row.image}` : `/gifts/${row.slug}.svg`,
  ...(Object.keys(row.names).length ? { names: row.names } : {}), ...(row.credits !== null ? { credits: row.credits } : {}),
});

/** What a message row needs to be shown: its gift and photo, looked up once per page of messages. */
interface Attachments {
  gifts: Map<number, GiftRow>;
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

/**
 * Reading conversations: a conversation's messages as its member sees them (read receipts, attachments), opening
 * one from a profile, and taking one off the member's list.
 */
export function createConversations(deps: {
  db: Db; events: EventBus; contactRules: ContactRules;
  /** Opening a conversation from a profile: the profile as its viewer may see it, or the partner who has left. */
  profiles: Pick<ProfilesService, 'detail' | 'former'>;
}) {
  const { db } = deps;

  async function attachmentsOf(rows: MessageRow[]): Promise<Attachments> {
    const giftIds = [...new Set(rows.flatMap((r) => (r.giftId ? [r.giftId] : [])))];
    const photoIds = [...new Set(rows.flatMap((r) => (r.chatPhotoId ? [r.chatPhotoId] : [])))];
    const [giftRows, photoRows] = await Promise.all([
      giftIds.length ? db.select(giftColumns).from(gifts).where(inArray(gifts.id, giftIds)) : [],
      photoIds.length ? db.select().from(chatPhotos).where(inArray(chatPhotos.id, photoIds)) : [],
    ]);
    return { gifts: new Map(giftRows.map((g) => [g.id, g])), photos: new Map(photoRows.map((p) => [p.id, p])) };
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

  /**
   * The conversation's messages, oldest first. Opening a conversation sets its unread count to 0 and
   * marks the other member's messages read; when both members show read receipts, the other member's
   * open tabs learn of it, and their messages carry `read`.
   */
  async function read(actor: Actor, convId: number, afterId = 0): Promise<{ profileId: number; truncated: boolean; messages: ChatMessage[] }> {
    const { userId } = requireMember(actor);
    const member = await membership(userId, convId);
    if (!member || (await deps.contactRules.blockedBetween(userId, member.otherId))) throw notFound();
    const rows = await db.select().from(messages)
      // A message a moderator hid (a statement of reasons says why) is gone for both members.
      .where(and(eq(messages.conversationId, convId), gt(messages.id, afterId), isNull(messages.removedAt), or(eq(messages.filtered, false), eq(messages.senderId, userId))))
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
  }

  /** Removes the conversation from this member's list; the other member keeps theirs. */
  async function remove(actor: Actor, convId: number): Promise<void> {
    const { userId } = requireMember(actor);
    const member = await membership(userId, convId);
    if (!member) throw notFound();
    await db.update(conversationMembers).set({ hidden: true, unreadCount: 0 })
      .where(and(eq(conversationMembers.conversationId, convId), eq(conversationMembers.userId, userId)));
  }

  return {
    findWith,
    membership,

    /** One message as its viewer sees it (a send's answer). */
    async messageOut(row: MessageRow, viewerId: number): Promise<ChatMessage> {
      return toMessage(row, viewerId, await attachmentsOf([row]));
    },

    read,
    remove,

    /**
     * The conversation with a member, opened from their profile (the API's `?profile=` and the
     * conversation pages alike): the profile as the actor may see it (a hidden or blocked one is "not
     * found"), and the conversation's messages, read as by `read`; no conversation yet: no messages.
     */
    async openWith(actor: Actor, profileId: number, afterId = 0): Promise<{ profile: ProfileDetail; left: boolean; conversationId: number | null; truncated: boolean; messages: ChatMessage[] }> {
      const { userId } = requireMember(actor);
      const convId = await findWith(userId, profileId);
      // A partner who deleted their account: the conversation (the member's own, paid for) stays readable, marked as
      // left; without a conversation there is nothing of theirs to open.
      const former = convId && (await membership(userId, convId)) ? await deps.profiles.former(profileId, convId) : null;
      const profile = former ?? (await deps.profiles.detail(actor, profileId));
      if (!convId) return { profile, left: false, conversationId: null, truncated: false, messages: [] };
      const { truncated, messages: page } = await read(actor, convId, afterId);
      return { profile, left: former !== null, conversationId: convId, truncated, messages: page };
    },

    /** Removes every conversation with this profile from the member's list (spec: removing by profile id). */
    async removeWith(actor: Actor, profileId: number): Promise<number[]> {
      const { userId } = requireMember(actor);
      const convId = await findWith(userId, profileId);
      if (!convId) throw notFound();
      await remove(actor, convId);
      return [convId];
    },
  };
}

export type Conversations = ReturnType<typeof createConversations>;
