import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { chatPhotos, photos, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from '../staff/audit.ts';
import { can, type StaffActor } from '../staff/staff-actor.ts';
import { CLAIM_MS, claimable, heldNow, pageNumber, QUEUE_PAGE, staffScope, type From, type QueuePage } from './queue-shared.ts';

export type PhotoKind = 'profile' | 'chat';

export interface QueuePhoto {
  kind: PhotoKind;
  id: number;
  member_id: number;
  thumb_filename: string;
  is_private: boolean;
  created_at: string;
  claimed_by: number | null;
  claimed_until: string | null;
}

/**
 * The photo queue for the console (decision 060): profile and chat photos no moderator has looked at, oldest first
 * across both kinds, 50 a page; opening one claims it for ten minutes as a report, so that two moderators never
 * decide the same photo (the decision itself, in the photos and chat areas, refuses while another holds it).
 */
export function createPhotoQueue(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  /** The first `limit` waiting photos of one kind within the moderator's sites, oldest first. */
  async function waiting(kind: PhotoKind, scope: SQL | undefined, limit: number) {
    if (kind === 'profile') {
      const rows = await db.select({ photo: photos }).from(photos).innerJoin(users, eq(users.id, photos.userId))
        .where(and(eq(photos.reviewed, false), ne(photos.status, 'rejected'), scope)).orderBy(asc(photos.createdAt), asc(photos.id)).limit(limit);
      return rows.map(({ photo: p }) => ({ kind, ...p, memberId: p.userId }));
    }
    const rows = await db.select({ photo: chatPhotos }).from(chatPhotos).innerJoin(users, eq(users.id, chatPhotos.senderId))
      .where(and(eq(chatPhotos.reviewed, false), ne(chatPhotos.status, 'rejected'), scope)).orderBy(asc(chatPhotos.createdAt), asc(chatPhotos.id)).limit(limit);
    return rows.map(({ photo: p }) => ({ kind, ...p, isPrivate: false, memberId: p.senderId }));
  }

  return {
    /** Page `page` of the waiting photos, both kinds merged oldest first, with how many wait. */
    async photoQueue(actor: StaffActor, page?: number): Promise<QueuePage<QueuePhoto> & { counts: { open: number } }> {
      const scope = staffScope(actor, users.siteId);
      const n = pageNumber(page);
      // Page n of the merged list lies within the first n pages of each kind.
      const upTo = n * QUEUE_PAGE + 1;
      const now = clock();
      const merged = [...await waiting('profile', scope, upTo), ...await waiting('chat', scope, upTo)]
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id || a.kind.localeCompare(b.kind));
      const items = merged.slice((n - 1) * QUEUE_PAGE, n * QUEUE_PAGE).map((p) => ({
        kind: p.kind, id: p.id, member_id: p.memberId, thumb_filename: p.thumbFilename, is_private: p.isPrivate,
        created_at: p.createdAt.toISOString(), ...heldNow(p, now),
      }));
      const count = sql<number>`count(*)`.mapWith(Number);
      const [profileCount] = await db.select({ n: count }).from(photos).innerJoin(users, eq(users.id, photos.userId))
        .where(and(eq(photos.reviewed, false), ne(photos.status, 'rejected'), scope));
      const [chatCount] = await db.select({ n: count }).from(chatPhotos).innerJoin(users, eq(users.id, chatPhotos.senderId))
        .where(and(eq(chatPhotos.reviewed, false), ne(chatPhotos.status, 'rejected'), scope));
      const open = profileCount.n + chatCount.n;
      return { items, page: n, has_more: merged.length > n * QUEUE_PAGE, counts: { open } };
    },

    /** Opens a photo for its moderator for ten minutes; another moderator's live hold answers 409 item_claimed. */
    async claimPhoto(actor: StaffActor, input: { kind: PhotoKind; id: number }, from: From = {}): Promise<{ claimed_until: string }> {
      staffScope(actor, users.siteId); // 403 without the moderator role anywhere
      const table = input.kind === 'chat' ? chatPhotos : photos;
      const owner = input.kind === 'chat' ? chatPhotos.senderId : photos.userId;
      const [row] = await db.select({ siteId: users.siteId, memberId: users.id, reviewed: table.reviewed }).from(table)
        .innerJoin(users, eq(users.id, owner)).where(eq(table.id, input.id));
      // A photo on a site the moderator does not reach is as unknown as a missing one (decision 059).
      if (!row || !can(actor, 'moderator', row.siteId)) throw notFound();
      if (row.reviewed) throw new AppError(409, 'photo_already_reviewed');
      const now = clock();
      const until = new Date(now.getTime() + CLAIM_MS);
      return db.transaction(async (tx) => {
        const [held] = await tx.update(table).set({ claimedBy: actor.staffId, claimedUntil: until })
          .where(and(eq(table.id, input.id), claimable(table.claimedBy, table.claimedUntil, actor, now))).returning({ id: table.id });
        if (!held) throw new AppError(409, 'item_claimed');
        await audit.record(tx, {
          actor, role: 'moderator', action: input.kind === 'chat' ? 'chat_photo.claim' : 'photo.claim', objectType: input.kind === 'chat' ? 'chat_photo' : 'photo',
          objectId: input.id, memberId: row.memberId, after: { claimed_until: until.toISOString() }, ip: from.ip,
        });
        return { claimed_until: until.toISOString() };
      });
    },
  };
}

export type PhotoQueue = ReturnType<typeof createPhotoQueue>;
