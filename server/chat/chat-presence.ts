import { and, eq } from 'drizzle-orm';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { conversationMembers } from '../db/schema.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { LiveBus } from '../infra/live-bus.ts';
import type { SharedCache } from '../infra/shared-cache.ts';
import type { ContactRules } from '../accounts/contact-rules.ts';
import type { Conversations } from './chat-messages.ts';

/** How long a "looking at this conversation" report lasts; open tabs repeat it more often than this. */
export const VIEWING_TTL_MS = 45_000;

/** Who is typing to whom and who is looking at which conversation: nothing of it is stored with the messages. */
export function createChatPresence(deps: {
  db: Db; live: LiveBus; contactRules: ContactRules; conversations: Pick<Conversations, 'membership'>;
  /** Shared by every instance: which conversation each member is looking at. */
  presence: SharedCache;
}) {
  const { db } = deps;
  return {
    /** Tells the recipient's open tabs that this member is typing to them (nothing is stored). */
    async typing(actor: Actor, recipientId: number): Promise<void> {
      const { userId: senderId } = requireMember(actor);
      if (senderId === recipientId) throw new AppError(400, 'cannot_message_self');
      await deps.contactRules.assertCanMessage(senderId, recipientId);
      await deps.live.publish(recipientId, { type: 'typing', profile_id: senderId });
    },

    /** The conversation this member's screen shows now (null: none), as their open tab reports it. */
    async setViewing(actor: Actor, convId: number | null): Promise<void> {
      const { userId } = requireMember(actor);
      const key = `chat:viewing:${userId}`;
      if (convId === null) return deps.presence.delete(key);
      if (!(await deps.conversations.membership(userId, convId))) throw notFound();
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
  };
}
