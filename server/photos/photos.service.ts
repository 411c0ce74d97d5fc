import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { can, requireMember, requireRole, requireRoleSomewhere, sitesOf, type Actor } from '../actor.ts';
import sharp, { type Metadata } from 'sharp';
import type { GalleryPhoto, OwnPhoto } from '#common/api-types.ts';
import { FREE_PHOTO_LIMIT, PREMIUM_PHOTO_LIMIT } from '#common/constants.ts';
import { PHOTO_MAX_BYTES, PHOTO_MAX_PIXELS } from '#common/profile.ts';
import type { Db, Tx } from '../db/client.ts';
import { chatPhotos, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { PhotoStorage } from '../infra/storage.ts';
import type { EventBus } from '../infra/events.ts';
import type { ContactRules } from '../accounts/contact-rules.ts';
import { deciderOf, type Statements } from '../moderation/statements.ts';
import { freeFor } from '../moderation/queue-shared.ts';
import type { AuditLog } from '../staff/audit.ts';

// Every photo is processed once: libvips' operation cache (50 MB by default) would only hold memory.
sharp.cache(false);

/** Formats we accept, judged by the decoded content (sharp), never by the file name or the browser's type. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'gif']);
const ORIGINAL_MAX_SIDE = 1600;
const THUMB = { width: 200, height: 240 };

type PhotoRow = typeof photos.$inferSelect;

export interface ProcessedPhoto {
  original: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/** A member's photos in their own order (decision 007): by position, then as uploaded. */
const memberOrder = [asc(photos.position), asc(photos.createdAt), asc(photos.id)] as const;

/** After the main photo goes away, or the order changes: the first public photo that is not rejected, or none. */
async function pickNewMain(executor: Db | Tx, userId: number) {
  const [next] = await executor.select({ id: photos.id }).from(photos)
    .where(and(eq(photos.userId, userId), ne(photos.status, 'rejected'), eq(photos.isPrivate, false)))
    .orderBy(...memberOrder).limit(1);
  await executor.update(profiles).set({ mainPhotoId: next?.id ?? null }).where(eq(profiles.userId, userId));
}

/**
 * A moderator's review of a profile photo, inside the caller's transaction: its status, the member's mail about it
 * (once, or again when a decision is changed), and a new main photo when the main one is rejected. An appeal upheld
 * approves a rejected photo the same way (a main photo is chosen again when the profile has none).
 */
export async function reviewPhotoInTx(tx: Tx, events: EventBus, photoId: number, status: 'active' | 'rejected') {
  const [before] = await tx.select({ status: photos.status, reviewed: photos.reviewed }).from(photos).where(eq(photos.id, photoId)).for('update');
  if (!before) throw notFound();
  const [row] = await tx.update(photos).set({ status, reviewed: true }).where(eq(photos.id, photoId)).returning();
  const changed = !before.reviewed || before.status !== status;
  if (changed) await events.record(tx, 'photo.reviewed', { userId: row.userId, photoId: row.id, approved: status === 'active' });
  const [profile] = await tx.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, row.userId));
  if (status === 'rejected' && profile?.mainPhotoId === row.id) await pickNewMain(tx, row.userId);
  if (status === 'active' && profile && profile.mainPhotoId === null && !row.isPrivate) await pickNewMain(tx, row.userId);
  return { row, changed: before.status !== status };
}

/**
 * Checks that the bytes are a real photo, then re-encodes it: auto-rotated, at most 1600 px, WebP,
 * with every piece of metadata (EXIF, GPS, XMP, ICC comments) left behind. sharp writes no metadata
 * unless asked to.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  if (input.length > PHOTO_MAX_BYTES) throw photoTooLarge();
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError(415, 'photo_invalid');
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw new AppError(415, 'photo_invalid');
  const height = meta.pageHeight ?? meta.height ?? 0;
  if ((meta.width ?? 0) * height > PHOTO_MAX_PIXELS) {
    throw new AppError(400, 'photo_too_many_pixels', { max: PHOTO_MAX_PIXELS / 1_000_000 });
  }
  try {
    const { data, info } = await sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: ORIGINAL_MAX_SIDE, height: ORIGINAL_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(data).resize(THUMB.width, THUMB.height, { fit: 'cover' }).webp({ quality: 75 }).toBuffer();
    return { original: data, thumb, width: info.width, height: info.height };
  } catch {
    throw new AppError(415, 'photo_invalid');
  }
}

export const photoTooLarge = () => new AppError(413, 'photo_too_large', { max: PHOTO_MAX_BYTES / 1024 / 1024 });

export function photoLimit(premium: boolean): number {
  return premium ? PREMIUM_PHOTO_LIMIT : FREE_PHOTO_LIMIT;
}

function toOwnPhoto(row: PhotoRow, mainPhotoId: number | null): OwnPhoto {
  return {
    id: row.id, filename: row.filename, thumb_filename: row.thumbFilename, status: row.status, is_private: row.isPrivate,
    is_main: row.id === mainPhotoId,
  };
}

export function createPhotosService(deps: {
  db: Db; clock: Clock; storage: PhotoStorage; contactRules: ContactRules; events: EventBus; audit: AuditLog; statements: Statements;
  /** The member's site: whether its photos are reviewed before or after they show. */
  site: (siteId: number) => Promise<{ photoModeration: 'before' | 'after' }>;
}) {
  const { db, clock, storage } = deps;

  async function member(userId: number) {
    const [row] = await db.select({ premium: users.paidUser, mainPhotoId: profiles.mainPhotoId })
      .from(users).innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, userId));
    if (!row) throw notFound();
    return row;
  }

  /** Photos that count towards the limit: everything but rejected ones. */
  async function countPhotos(executor: Db | Tx, userId: number): Promise<number> {
    const [row] = await executor.select({ n: sql<number>`count(*)::int` }).from(photos)
      .where(and(eq(photos.userId, userId), ne(photos.status, 'rejected')));
    return row.n;
  }

  async function ownPhoto(userId: number, photoId: number): Promise<PhotoRow> {
    const [row] = await db.select().from(photos).where(and(eq(photos.id, photoId), eq(photos.userId, userId)));
    if (!row) throw notFound();
    return row;
  }

  async function removeFiles(row: Pick<PhotoRow, 'filename' | 'thumbFilename'>) {
    await storage.delete(row.filename);
    await storage.delete(row.thumbFilename);
  }

  return {
    limit: photoLimit,

    async list(actor: Actor): Promise<{ photos: OwnPhoto[]; limit: number }> {
      const { userId } = requireMember(actor);
      const m = await member(userId);
      const rows = await db.select().from(photos).where(eq(photos.userId, userId)).orderBy(...memberOrder);
      return { photos: rows.map((r) => toOwnPhoto(r, m.mainPhotoId)), limit: photoLimit(m.premium) };
    },

    /**
     * Stores a new photo. With the member's site's moderation 'after' it shows at once and waits in the review
     * queue; with 'before' it stays pending until approved. The first photo becomes the main photo.
     * Free members keep 3 photos and no private ones; premium members 25.
     */
    async upload(actor: Actor, input: Buffer, options: { isPrivate: boolean }): Promise<OwnPhoto> {
      const { userId, siteId } = requireMember(actor);
      const [m, { photoModeration }] = await Promise.all([member(userId), deps.site(siteId)]);
      if (options.isPrivate && !m.premium) throw new AppError(403, 'premium_required');
      const limit = photoLimit(m.premium);
      if ((await countPhotos(db, userId)) >= limit) throw new AppError(403, 'photo_limit_reached', { limit });
      const processed = await processPhoto(input);
      const base = randomBytes(12).toString('base64url');
      const names = { filename: `${base}.webp`, thumbFilename: `${base}_t.webp` };
      await storage.put(names.filename, processed.original, 'image/webp');
      await storage.put(names.thumbFilename, processed.thumb, 'image/webp');
      try {
        return await db.transaction(async (tx) => {
          // One upload at a time per member, so parallel uploads cannot pass the limit together.
          const [locked] = await tx.select({ premium: users.paidUser }).from(users).where(eq(users.id, userId)).for('update');
          const currentLimit = photoLimit(locked.premium);
          if ((await countPhotos(tx, userId)) >= currentLimit) throw new AppError(403, 'photo_limit_reached', { limit: currentLimit });
          // A new photo goes last in the member's order.
          const [{ last }] = await tx.select({ last: sql<number | null>`max(${photos.position})` }).from(photos).where(eq(photos.userId, userId));
          const [row] = await tx.insert(photos).values({
            userId, ...names, status: photoModeration === 'after' ? 'active' : 'pending', isPrivate: options.isPrivate, width: processed.width, height: processed.height,
            position: last === null ? 0 : Number(last) + 1, createdAt: clock(),
          }).returning();
          const [profile] = await tx.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId));
          let mainPhotoId = profile.mainPhotoId;
          if (mainPhotoId === null && !options.isPrivate) {
            await tx.update(profiles).set({ mainPhotoId: row.id }).where(eq(profiles.userId, userId));
            mainPhotoId = row.id;
          }
          return toOwnPhoto(row, mainPhotoId);
        });
      } catch (error) {
        await removeFiles(names).catch(() => undefined);
        throw error;
      }
    },

    async remove(actor: Actor, photoId: number): Promise<void> {
      const { userId } = requireMember(actor);
      const row = await ownPhoto(userId, photoId);
      await db.transaction(async (tx) => {
        await tx.delete(photos).where(eq(photos.id, row.id));
        const [profile] = await tx.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId));
        if (profile?.mainPhotoId === row.id) await pickNewMain(tx, userId);
      });
      await removeFiles(row);
    },

    /** The main photo is public: a private or rejected photo cannot be it. It moves to the front of the member's order. */
    async setMain(actor: Actor, photoId: number): Promise<void> {
      const { userId } = requireMember(actor);
      const row = await ownPhoto(userId, photoId);
      if (row.isPrivate) throw new AppError(400, 'photo_private_main');
      if (row.status === 'rejected') throw new AppError(400, 'photo_rejected');
      await db.transaction(async (tx) => {
        const [{ first }] = await tx.select({ first: sql<number>`coalesce(min(${photos.position}), 0)` }).from(photos).where(eq(photos.userId, userId));
        await tx.update(photos).set({ position: Number(first) - 1 }).where(eq(photos.id, row.id));
        await tx.update(profiles).set({ mainPhotoId: row.id }).where(eq(profiles.userId, userId));
      });
    },

    /**
     * The member's own order of their photos: `order` names every one of their photos once, first to last. The first
     * public photo that is not rejected becomes the main photo. Anything else (a photo missing, twice, or not theirs)
     * is refused and changes nothing.
     */
    async reorder(actor: Actor, order: number[]): Promise<void> {
      const { userId } = requireMember(actor);
      await db.transaction(async (tx) => {
        // One change at a time per member: an upload in between would leave a photo out of the order.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const own = await tx.select({ id: photos.id }).from(photos).where(eq(photos.userId, userId));
        const ids = new Set(own.map((r) => r.id));
        if (order.length !== ids.size || new Set(order).size !== order.length || order.some((id) => !ids.has(id))) {
          throw new AppError(400, 'photo_order_invalid');
        }
        for (const [position, id] of order.entries()) await tx.update(photos).set({ position }).where(eq(photos.id, id));
        await pickNewMain(tx, userId);
      });
    },

    async setPrivate(actor: Actor, photoId: number, isPrivate: boolean): Promise<void> {
      const { userId } = requireMember(actor);
      const row = await ownPhoto(userId, photoId);
      const m = await member(userId);
      if (isPrivate && !m.premium) throw new AppError(403, 'premium_required');
      if (isPrivate && m.mainPhotoId === row.id) throw new AppError(400, 'photo_private_main');
      await db.update(photos).set({ isPrivate }).where(eq(photos.id, row.id));
    },

    /**
     * A profile's gallery as `viewerId` sees it. The owner sees everything with its status. Others see
     * approved photos only; the public main photo is open to all, every further photo (and every private
     * one) needs premium: visitors get 'login' placeholders, free members 'premium' ones, without file names.
     */
    async gallery(viewerId: number | null, profileId: number, mainPhotoId: number | null): Promise<GalleryPhoto[]> {
      const own = viewerId === profileId;
      const rows = await db.select().from(photos)
        .where(own ? eq(photos.userId, profileId) : and(eq(photos.userId, profileId), eq(photos.status, 'active')))
        .orderBy(...memberOrder);
      const premium = viewerId && !own ? (await member(viewerId).catch(() => ({ premium: false }))).premium : false;
      rows.sort((a, b) => Number(b.id === mainPhotoId) - Number(a.id === mainPhotoId));
      return rows.map((r) => {
        const isMain = r.id === mainPhotoId;
        const open = own || premium || (isMain && !r.isPrivate);
        const locked = open ? null : viewerId ? 'premium' as const : 'login' as const;
        return {
          id: r.id, filename: open ? r.filename : null, thumb_filename: open ? r.thumbFilename : null, status: r.status,
          is_private: r.isPrivate, is_main: isMain, locked,
        };
      });
    },

    /**
     * May this viewer load this photo file? `public`: an approved, non-private main photo, open to everyone;
     * `private`: a file only this viewer may see (their own, or premium access to an approved photo of a
     * member who has not blocked them and whom they have not blocked, of a site theirs meets: decision 051). A deleted
     * account's files are `denied` to everyone from the moment of deletion, a disabled profile's to everyone but its owner.
     */
    async fileAccess(file: string, viewerId: number | null): Promise<'public' | 'private' | 'denied'> {
      const [row] = await db.select({
        id: photos.id, userId: photos.userId, status: photos.status, isPrivate: photos.isPrivate, mainPhotoId: profiles.mainPhotoId,
        profileStatus: profiles.status, accountStatus: users.status,
      })
        .from(photos).innerJoin(profiles, eq(profiles.userId, photos.userId)).innerJoin(users, eq(users.id, photos.userId))
        .where(or(eq(photos.filename, file), eq(photos.thumbFilename, file))).limit(1);
      if (!row || row.accountStatus === 'deleted') return 'denied';
      const own = viewerId === row.userId;
      if (row.profileStatus === 'disabled' && !own) return 'denied';
      if (row.status === 'active' && !row.isPrivate && row.id === row.mainPhotoId) return 'public';
      if (!viewerId) return 'denied';
      if (own) return 'private';
      if (row.status !== 'active') return 'denied';
      if (await deps.contactRules.apart(viewerId, row.userId)) return 'denied';
      const viewer = await member(viewerId).catch(() => null);
      return viewer?.premium ? 'private' : 'denied';
    },

    /** Moderators: photos no moderator has looked at yet (pending, or already shown) on the sites they reach, oldest first. */
    async pending(actor: Actor): Promise<{ id: number; user_id: number; filename: string; thumb_filename: string; is_private: boolean; status: 'pending' | 'active'; created_at: string }[]> {
      const sites = sitesOf(requireRoleSomewhere(actor, 'moderator'));
      const rows = (await db.select({ photo: photos }).from(photos).innerJoin(users, eq(users.id, photos.userId))
        .where(and(eq(photos.reviewed, false), ne(photos.status, 'rejected'), sites ? inArray(users.siteId, [...sites]) : undefined))
        .orderBy(asc(photos.createdAt), asc(photos.id))).map((r) => r.photo);
      return rows.map((r) => ({
        id: r.id, user_id: r.userId, filename: r.filename, thumb_filename: r.thumbFilename, is_private: r.isPrivate,
        status: r.status === 'active' ? 'active' as const : 'pending' as const, created_at: r.createdAt.toISOString(),
      }));
    },

    /**
     * Moderators of the member's site: approve (visible to others) or reject (hidden; a rejected main photo is
     * replaced). A rejection writes its statement of reasons in the same transaction as the audit row (decision 057).
     * A photo on a site the moderator does not reach is as unknown as a missing one.
     */
    async moderate(actor: Actor, photoId: number, decision: 'approve' | 'reject', { ip = null }: { ip?: string | null } = {}): Promise<{ id: number; status: 'active' | 'rejected' }> {
      const by = requireRoleSomewhere(actor, 'moderator');
      const status = decision === 'approve' ? 'active' as const : 'rejected' as const;
      const { result, decisionId } = await db.transaction(async (tx) => {
        const [before] = await tx.select({ status: photos.status, reviewed: photos.reviewed, siteId: users.siteId }).from(photos)
          .innerJoin(users, eq(users.id, photos.userId)).where(eq(photos.id, photoId));
        if (!before) throw notFound();
        try {
          requireRole(actor, 'moderator', before.siteId);
        } catch {
          throw notFound();
        }
        // Two moderators never decide one photo: another's live hold refuses (decision 060); the decision ends the hold.
        const [free] = await tx.update(photos).set({ claimedBy: null, claimedUntil: null })
          .where(and(eq(photos.id, photoId), freeFor(photos.claimedBy, photos.claimedUntil, deciderOf(actor), deps.clock()))).returning({ id: photos.id });
        if (!free) throw new AppError(409, 'item_claimed');
        const { row, changed } = await reviewPhotoInTx(tx, deps.events, photoId, status);
        await deps.audit.record(tx, {
          actor: by, role: 'moderator', action: `photo.${decision}`, objectType: 'photo', objectId: row.id, memberId: row.userId,
          before: { status: before.status, reviewed: before.reviewed }, after: { status, reviewed: true }, ip,
        });
        const id = status === 'rejected' && changed
          ? await deps.statements.issue(tx, {
            memberId: row.userId, restriction: 'photo_removed', content: { kind: 'photo', id: row.id }, facts: '',
            ground: 'terms_photo_rules', automated: false, staffId: deciderOf(actor),
          })
          : null;
        return { result: { id: row.id, status }, decisionId: id };
      });
      if (decisionId) deps.events.emit('statement.issued', { decisionId });
      return result;
    },

    /** The bytes of an operator-requested file (pending photos are otherwise only served to their owner). */
    async file(name: string): Promise<Buffer | null> {
      return storage.get(name);
    },

    /**
     * A profile or chat photo's bytes for a moderator of its member's site (pending photos are otherwise only served
     * to their owner); null for a file they do not reach or that is no photo.
     */
    async moderationFile(actor: Actor, name: string): Promise<Buffer | null> {
      requireRoleSomewhere(actor, 'moderator');
      const [owner] = await db.select({ siteId: users.siteId }).from(photos).innerJoin(users, eq(users.id, photos.userId))
        .where(or(eq(photos.filename, name), eq(photos.thumbFilename, name)))
        .union(db.select({ siteId: users.siteId }).from(chatPhotos).innerJoin(users, eq(users.id, chatPhotos.senderId))
          .where(or(eq(chatPhotos.filename, name), eq(chatPhotos.thumbFilename, name))))
        .limit(1);
      if (!owner || (actor.kind === 'staff' && !can(actor, 'moderator', owner.siteId))) return null;
      return storage.get(name);
    },
  };
}
