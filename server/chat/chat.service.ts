import { and, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { ChatMessage, ChatSummary } from '#common/api-types.ts';
import { FREE_CONVERSATIONS } from '#common/constants.ts';
import type { Db, Tx } from '../db/client.ts';
import { conversationMembers, conversations, messages, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { LiveBus } from '../infra/live-bus.ts';
import { notBlockedWith, type ContactRules } from '../accounts/contact-rules.ts';
import { spendCredits } from '../credits/ledger.ts';
import { profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';
import { isUniqueViolation } from '../db/errors.ts';

const MESSAGES_PAGE = 200;

/** `readUpTo`: the other member's last read message when both show read receipts, else null. */
function toMessage(row: typeof messages.$inferSelect, viewerId: number, readUpTo: number | null = null): ChatMessage {
  const fromMe = row.senderId === viewerId;
  return {
    id: row.id,
    conversation_id: row.conversationId,
    from_me: fromMe,
    text: row.body,
    created_at: row.createdAt.toISOString(),
    ...(fromMe && readUpTo !== null ? { read: row.id <= readUpTo } : {}),
  };
}

export interface SendInput {
  senderId: number;
  recipientId: number;
  text: string;
  idempotencyKey: string;
  cost: number;
  maxLength: number;
  /** The site's free messages for members who have not bought credits yet (0: none). */
  freeMessages?: number;
}

/** The same text to this many other members within an hour is refused (copy-paste spam). */
export const SAME_TEXT_RECIPIENTS = 5;
const SAME_TEXT_WINDOW_MS = 3_600_000;

export function createChatService(deps: { db: Db; clock: Clock; events: EventBus; contactRules: ContactRules; live: LiveBus }) {
  const { db, clock } = deps;

  // A member's conversations with the other member's profile and the last message, in one statement
  // (the last message through a lateral join, one index probe each); prepared once, as every chat page asks.
  const viewer = sql.placeholder('userId');
  const other = sql<number>`case when ${conversations.userLow} = ${viewer} then ${conversations.userHigh} else ${conversations.userLow} end`;
  const lastMessage = db
    .select({ body: messages.body, senderId: messages.senderId, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.conversationId, conversations.id))
    .orderBy(desc(messages.id))
    .limit(1)
    .as('last_message');
  const listQuery = db
    .select({
      ...profileColumns,
      conversationId: conversations.id,
      lastMessageAt: conversations.lastMessageAt,
      unread: conversationMembers.unreadCount,
      last: { body: lastMessage.body, senderId: lastMessage.senderId, createdAt: lastMessage.createdAt },
    })
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

  async function conversationId(tx: Tx | Db, a: number, b: number): Promise<number> {
    const [low, high] = a < b ? [a, b] : [b, a];
    await tx.insert(conversations).values({ userLow: low, userHigh: high, createdAt: clock() }).onConflictDoNothing();
    const [conv] = await tx.select({ id: conversations.id }).from(conversations)
      .where(and(eq(conversations.userLow, low), eq(conversations.userHigh, high)));
    await tx.insert(conversationMembers).values([
      { conversationId: conv.id, userId: low },
      { conversationId: conv.id, userId: high },
    ]).onConflictDoNothing();
    return conv.id;
  }

  /**
   * The message this key already sent, if any. A retry must be the same request: the same key with
   * another recipient or text is refused rather than answered with the first message.
   */
  async function existingSend(senderId: number, key: string, recipientId: number, text: string) {
    const [found] = await db
      .select({ row: messages, low: conversations.userLow, high: conversations.userHigh })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(messages.senderId, senderId), eq(messages.idempotencyKey, key)));
    if (!found) return undefined;
    const sentTo = found.low === senderId ? found.high : found.low;
    if (sentTo !== recipientId || found.row.body !== text) throw new AppError(422, 'idempotency_key_reused');
    return found.row;
  }

  /**
   * Spec section 6 for members who have not bought credits yet: they write in at most
   * FREE_CONVERSATIONS conversations, and their first `freeMessages` messages cost nothing. Holds the
   * sender's row, so parallel sends cannot use one free message twice. Returns whether this one is free.
   */
  async function useFreeMessage(tx: Tx, senderId: number, convId: number, freeMessages: number): Promise<boolean> {
    const [sender] = await tx.select({ paid: users.paidUser }).from(users).where(eq(users.id, senderId)).for('update');
    if (!sender || sender.paid) return false;
    const written = await tx.selectDistinct({ id: messages.conversationId }).from(messages).where(eq(messages.senderId, senderId));
    if (!written.some((w) => w.id === convId) && written.length >= FREE_CONVERSATIONS) {
      throw new AppError(403, 'free_conversation_limit', { count: FREE_CONVERSATIONS });
    }
    return (await freeMessagesUsed(tx, senderId)) < freeMessages;
  }

  const freeMessagesUsed = (q: Db | Tx, senderId: number) => q.$count(messages, and(eq(messages.senderId, senderId), eq(messages.creditsSpent, 0)));

  /** One text sent to many members within an hour is spam: the next member it would reach is refused. */
  async function assertNotCopyPasted(senderId: number, recipientId: number, text: string) {
    const since = new Date(clock().getTime() - SAME_TEXT_WINDOW_MS);
    const other = sql<number>`case when ${conversations.userLow} = ${senderId} then ${conversations.userHigh} else ${conversations.userLow} end`;
    const [row] = await db.select({ n: sql<number>`count(distinct ${other})`.mapWith(Number) }).from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(messages.senderId, senderId), eq(messages.body, text), gt(messages.createdAt, since), ne(other, recipientId)));
    if (row.n >= SAME_TEXT_RECIPIENTS) throw new AppError(429, 'same_text_throttled', { count: SAME_TEXT_RECIPIENTS });
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
     * Sends a message and charges its credits in one transaction. The client retries up to 5 times,
     * so the idempotency key makes a retried send return the first result without charging again.
     */
    async send(input: SendInput): Promise<{ message: ChatMessage; credits: number; duplicate: boolean }> {
      const { senderId, recipientId, idempotencyKey, cost } = input;
      const text = input.text.trim();
      const previous = await existingSend(senderId, idempotencyKey, recipientId, text);
      if (previous) return { message: toMessage(previous, senderId), credits: await balance(senderId), duplicate: true };
      if (!text) throw new AppError(400, 'message_empty');
      if (text.length > input.maxLength) throw new AppError(400, 'message_too_long', { max: input.maxLength });
      if (senderId === recipientId) throw new AppError(400, 'cannot_message_self');
      const [recipient] = await db.select({ status: users.status, profileStatus: profiles.status }).from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, recipientId));
      if (!recipient || recipient.status === 'deleted' || recipient.profileStatus === 'disabled') throw notFound();
      await deps.contactRules.assertCanMessage(senderId, recipientId);
      await assertNotCopyPasted(senderId, recipientId, text);
      try {
        const result = await db.transaction(async (tx) => {
          const convId = await conversationId(tx, senderId, recipientId);
          const now = clock();
          const free = await useFreeMessage(tx, senderId, convId, input.freeMessages ?? 0);
          const [row] = await tx.insert(messages)
            .values({ conversationId: convId, senderId, body: text, creditsSpent: free ? 0 : cost, idempotencyKey, createdAt: now })
            .returning();
          const credits = free ? await balance(senderId, tx) : await spendCredits(tx, senderId, cost, 'message', String(row.id));
          if (credits === null) throw new AppError(402, 'insufficient_credits');
          await tx.update(conversations).set({ lastMessageAt: now }).where(eq(conversations.id, convId));
          await tx.update(conversationMembers)
            .set({ unreadCount: sql`${conversationMembers.unreadCount} + 1`, hidden: false })
            .where(and(eq(conversationMembers.conversationId, convId), eq(conversationMembers.userId, recipientId)));
          await tx.update(conversationMembers).set({ hidden: false })
            .where(and(eq(conversationMembers.conversationId, convId), eq(conversationMembers.userId, senderId)));
          await deps.events.record(tx, 'message.sent', { messageId: row.id, conversationId: convId, senderId, recipientId, text });
          return { message: toMessage(row, senderId), credits, duplicate: false };
        });
        deps.events.emit('message.sent', {
          messageId: result.message.id, conversationId: result.message.conversation_id, senderId, recipientId, text,
        });
        return result;
      } catch (error) {
        // The same key sent twice at once: the unique index let one through; answer with that one.
        if (isUniqueViolation(error)) {
          const first = await existingSend(senderId, idempotencyKey, recipientId, text);
          if (first) return { message: toMessage(first, senderId), credits: await balance(senderId), duplicate: true };
        }
        throw error;
      }
    },

    async list(userId: number): Promise<ChatSummary[]> {
      const today = clock();
      const rows = await listQuery.execute({ userId });
      return rows.map((r) => ({
        conversation: { id: r.conversationId, last_message_at: r.lastMessageAt?.toISOString() ?? null },
        profile: toProfileSummary(r as ProfileRow, today),
        num_unread_messages: r.unread,
        last_message: r.last ? { text: r.last.body.slice(0, 140), from_me: r.last.senderId === userId, created_at: r.last.createdAt.toISOString() } : null,
      }));
    },

    /**
     * The conversation's messages, oldest first. Opening a conversation sets its unread count to 0 and
     * marks the other member's messages read; when both members show read receipts, the other member's
     * open tabs learn of it, and their messages carry `read`.
     */
    async read(userId: number, convId: number, afterId = 0): Promise<{ profileId: number; messages: ChatMessage[] }> {
      const member = await membership(userId, convId);
      if (!member || (await deps.contactRules.blockedBetween(userId, member.otherId))) throw notFound();
      const rows = await db.select().from(messages)
        .where(and(eq(messages.conversationId, convId), gt(messages.id, afterId)))
        .orderBy(desc(messages.id)).limit(MESSAGES_PAGE);
      const [newest] = await db.select({ id: sql<number>`coalesce(max(${messages.id}), 0)`.mapWith(Number) }).from(messages)
        .where(and(eq(messages.conversationId, convId), eq(messages.senderId, member.otherId)));
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
      return { profileId: member.otherId, messages: rows.reverse().map((m) => toMessage(m, userId, both ? other?.lastReadId ?? 0 : null)) };
    },

    /** Free messages a member who has not bought credits yet still has (0 for paying members). */
    async freeMessagesLeft(userId: number, freeMessages: number): Promise<number> {
      const [u] = await db.select({ paid: users.paidUser }).from(users).where(eq(users.id, userId));
      if (!u || u.paid) return 0;
      return Math.max(0, freeMessages - (await freeMessagesUsed(db, userId)));
    },

    /** Tells the recipient's open tabs that this member is typing to them (nothing is stored). */
    async typing(senderId: number, recipientId: number): Promise<void> {
      if (senderId === recipientId) throw new AppError(400, 'cannot_message_self');
      await deps.contactRules.assertCanMessage(senderId, recipientId);
      await deps.live.publish(recipientId, { type: 'typing', profile_id: senderId });
    },

    /** The conversation with a member, if there is one. */
    async findWith(userId: number, otherId: number): Promise<number | null> {
      const [low, high] = userId < otherId ? [userId, otherId] : [otherId, userId];
      const [conv] = await db.select({ id: conversations.id }).from(conversations)
        .where(and(eq(conversations.userLow, low), eq(conversations.userHigh, high)));
      return conv?.id ?? null;
    },

    /** Removes the conversation from this member's list; the other member keeps theirs. */
    async remove(userId: number, convId: number): Promise<void> {
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

