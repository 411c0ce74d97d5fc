import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { conversations, memberReports, messages, users } from '../db/schema.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from '../staff/audit.ts';
import { requireRole, type StaffActor } from '../actor.ts';
import type { StaffRequest } from './member-support.ts';

/** Messages shown of a reported conversation: the newest ones, oldest first. */
const SHOWN = 200;

/**
 * Whether a member's report names a message of the statement's conversation (`conversations` in its FROM). Only then
 * may staff read its text (issue 26, item 6): a report is the reason to look, and the reported message is in it.
 */
export function reportedConversation(): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${memberReports} r join ${messages} m on m.id = r.content_id
    where r.kind = 'message' and m.conversation_id = ${conversations}.id)`;
}

export interface ConversationText {
  id: number;
  memberIds: [number, number];
  /** The reports that open it: which message, why, by whom, where it stands. */
  reports: { id: number; messageId: number; reporterId: number; reason: string; status: string; createdAt: string }[];
  messages: {
    id: number; senderId: number; kind: string; body: string; filtered: boolean; removedAt: string | null; createdAt: string; reported: boolean;
  }[];
  /** How many messages the conversation has in all (only the newest SHOWN are in `messages`). */
  total: number;
}

/**
 * Support staff read a member's conversation only where a report concerns it (a reported message is in it); any other
 * is refused (403 conversation_not_reported), and a conversation that is not the member's is not found. Each reading
 * writes `member.read_conversation` in the transaction of the read.
 */
export function createConversationReading(deps: { db: Db; audit: AuditLog }) {
  const { db, audit } = deps;
  return {
    async read(actor: StaffActor, memberId: number, conversationId: number, from: StaffRequest): Promise<ConversationText> {
      return db.transaction(async (tx) => {
        const [member] = await tx.select({ siteId: users.siteId }).from(users).where(eq(users.id, memberId));
        if (!member) throw notFound();
        requireRole(actor, 'support', member.siteId);
        const [conversation] = await tx.select({ id: conversations.id, low: conversations.userLow, high: conversations.userHigh, reported: reportedConversation() })
          .from(conversations)
          .where(and(eq(conversations.id, conversationId), or(eq(conversations.userLow, memberId), eq(conversations.userHigh, memberId))));
        if (!conversation) throw notFound();
        if (!conversation.reported) throw new AppError(403, 'conversation_not_reported');
        const ids = tx.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId));
        const reports = await tx.select({
          id: memberReports.id, messageId: memberReports.contentId, reporterId: memberReports.reporterId, reason: memberReports.reason,
          status: memberReports.status, createdAt: memberReports.createdAt,
        }).from(memberReports).where(and(eq(memberReports.kind, 'message'), inArray(memberReports.contentId, ids))).orderBy(asc(memberReports.id));
        const rows = await tx.select({
          id: messages.id, senderId: messages.senderId, kind: messages.kind, body: messages.body, filtered: messages.filtered,
          removedAt: messages.removedAt, createdAt: messages.createdAt,
        }).from(messages).where(eq(messages.conversationId, conversationId)).orderBy(desc(messages.id)).limit(SHOWN);
        const total = await tx.$count(messages, eq(messages.conversationId, conversationId));
        await audit.record(tx, {
          actor, role: 'support', action: 'member.read_conversation', objectType: 'conversation', objectId: conversationId, memberId, ip: from.ip,
          after: { reports: reports.map((r) => r.id), messages: rows.length },
        });
        const reported = new Set(reports.map((r) => r.messageId));
        return {
          id: conversation.id,
          memberIds: [conversation.low, conversation.high],
          reports: reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
          messages: rows.reverse().map((m) => ({ ...m, removedAt: m.removedAt?.toISOString() ?? null, createdAt: m.createdAt.toISOString(), reported: reported.has(m.id) })),
          total,
        };
      });
    },
  };
}

export type ConversationReading = ReturnType<typeof createConversationReading>;
