import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, ne, or } from 'drizzle-orm';
import { can, requireRoleSomewhere, sitesOf, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { chatPhotos, conversations, users } from '../db/schema.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { Clock } from '../infra/clock.ts';
import { freeFor } from '../moderation/queue-shared.ts';
import type { PhotoStorage } from '../infra/storage.ts';
import type { ContactRules } from '../accounts/contact-rules.ts';
import { processPhoto } from '../photos/photos.service.ts';
import type { EventBus } from '../infra/events.ts';
import { deciderOf, type Statements } from '../moderation/statements.ts';
import type { AuditLog } from '../staff/audit.ts';

/**
 * Photos sent in the chat: their files (stored before the send, gone when a send fails or a moderator rejects
 * one), who may load them, and their review after the fact (they show at once).
 */
export function createChatPhotos(deps: { db: Db; clock: Clock; storage: PhotoStorage; contactRules: ContactRules; audit: AuditLog; events: EventBus; statements: Statements }) {
  const { db, storage } = deps;

  const removeFiles = async (names: { filename: string; thumbFilename: string }) => {
    await storage.delete(names.filename).catch(() => undefined);
    await storage.delete(names.thumbFilename).catch(() => undefined);
  };

  return {
    /** Stores a chat photo's files (metadata stripped, re-encoded) before the transaction that sends it. */
    async store(input: Buffer) {
      const processed = await processPhoto(input);
      const base = randomBytes(12).toString('base64url');
      const names = { filename: `${base}.webp`, thumbFilename: `${base}_t.webp` };
      await storage.put(names.filename, processed.original, 'image/webp');
      await storage.put(names.thumbFilename, processed.thumb, 'image/webp');
      return { ...names, width: processed.width, height: processed.height };
    },

    removeFiles,

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

    /** Moderators: chat photos no moderator has looked at yet on the sites they reach (they show at once and are reviewed afterwards). */
    async pendingPhotos(actor: Actor) {
      const sites = sitesOf(requireRoleSomewhere(actor, 'moderator'));
      const rows = (await db.select({ photo: chatPhotos }).from(chatPhotos).innerJoin(users, eq(users.id, chatPhotos.senderId))
        .where(and(eq(chatPhotos.reviewed, false), ne(chatPhotos.status, 'rejected'), sites ? inArray(users.siteId, [...sites]) : undefined))
        .orderBy(asc(chatPhotos.createdAt), asc(chatPhotos.id))).map((r) => r.photo);
      return rows.map((r) => ({ id: r.id, user_id: r.senderId, filename: r.filename, thumb_filename: r.thumbFilename, created_at: r.createdAt.toISOString() }));
    },

    /**
     * Moderators of the sender's site: approve or reject a chat photo. A rejected one is gone for both members
     * (photoAccess denies it) and its sender gets a statement of reasons, written in the same transaction as the audit
     * row; its files stay, so that an appeal upheld can show it again (decision 057). A photo on a site the moderator
     * does not reach is as unknown as a missing one.
     */
    async moderatePhoto(actor: Actor, photoId: number, decision: 'approve' | 'reject', { ip = null }: { ip?: string | null } = {}): Promise<{ id: number; status: 'active' | 'rejected' }> {
      const by = requireRoleSomewhere(actor, 'moderator');
      const status = decision === 'approve' ? 'active' as const : 'rejected' as const;
      const [photo] = await db.select({ siteId: users.siteId }).from(chatPhotos).innerJoin(users, eq(users.id, chatPhotos.senderId)).where(eq(chatPhotos.id, photoId));
      if (!photo || (actor.kind === 'staff' && !can(actor, 'moderator', photo.siteId))) throw notFound();
      const decisionId = await db.transaction(async (tx) => {
        const [before] = await tx.select({ status: chatPhotos.status }).from(chatPhotos).where(eq(chatPhotos.id, photoId)).for('update');
        if (!before) throw notFound();
        // Two moderators never decide one photo: another's live hold refuses (decision 060); the decision ends the hold.
        const [updated] = await tx.update(chatPhotos).set({ status, reviewed: true, claimedBy: null, claimedUntil: null })
          .where(and(eq(chatPhotos.id, photoId), freeFor(chatPhotos.claimedBy, chatPhotos.claimedUntil, deciderOf(actor), deps.clock()))).returning();
        if (!updated) throw new AppError(409, 'item_claimed');
        await deps.audit.record(tx, {
          actor: by, role: 'moderator', action: `chat_photo.${decision}`, objectType: 'chat_photo', objectId: photoId, memberId: updated.senderId,
          before: { status: before.status }, after: { status, reviewed: true }, ip,
        });
        if (status !== 'rejected' || before.status === 'rejected') return null;
        return deps.statements.issue(tx, {
          memberId: updated.senderId, restriction: 'photo_removed', content: { kind: 'chat_photo', id: updated.id }, facts: '',
          ground: 'terms_photo_rules', automated: false, staffId: deciderOf(actor),
        });
      });
      if (decisionId) deps.events.emit('statement.issued', { decisionId });
      return { id: photoId, status };
    },
  };
}

export type ChatPhotos = ReturnType<typeof createChatPhotos>;
