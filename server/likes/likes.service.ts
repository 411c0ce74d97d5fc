import { and, desc, eq, ne } from 'drizzle-orm';
import type { ProfileSummary } from '#common/api-types.ts';
import type { Db } from '../db/client.ts';
import { likes, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import { notBlockedWith, type ContactRules } from '../accounts/contact-rules.ts';
import { profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';

export function createLikesService(deps: { db: Db; clock: Clock; events: EventBus; contactRules: ContactRules }) {
  const { db, clock } = deps;

  async function assertLikeable(likerId: number, likedId: number) {
    if (likerId === likedId) throw new AppError(400, 'cannot_like_self');
    const [target] = await db
      .select({ status: users.status, profileStatus: profiles.status })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, likedId));
    if (!target || target.status === 'deleted' || target.profileStatus === 'disabled') throw notFound();
    await deps.contactRules.assertCanSee(likerId, likedId);
  }

  /** A block hides the pair from each other's lists too. */
  const notBlocked = (userId: number) => notBlockedWith(userId, profiles.userId);

  async function listProfiles(where: ReturnType<typeof and>, joinOn: 'likerId' | 'likedId') {
    return db
      .select({ ...profileColumns, isNew: likes.isNew, likedAt: likes.createdAt })
      .from(likes)
      .innerJoin(profiles, eq(profiles.userId, likes[joinOn]))
      .innerJoin(users, eq(users.id, profiles.userId))
      .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
      // Invisible members stay out of other members' likes lists (invisible mode).
      .where(and(where, ne(users.status, 'deleted'), eq(users.invisible, false), eq(profiles.status, 'active')))
      .orderBy(desc(likes.isNew), desc(likes.createdAt));
  }

  return {
    /** Liking twice is harmless: the second call changes nothing. Returns whether it is now a match. */
    async like(likerId: number, likedId: number): Promise<{ match: boolean }> {
      await assertLikeable(likerId, likedId);
      const created = await db.insert(likes).values({ likerId, likedId, createdAt: clock() }).onConflictDoNothing().returning({ x: likes.likerId });
      const [back] = await db.select({ x: likes.likerId }).from(likes).where(and(eq(likes.likerId, likedId), eq(likes.likedId, likerId)));
      if (created.length) deps.events.emit('like.created', { likerId, likedId, match: Boolean(back) });
      return { match: Boolean(back) };
    },

    async unlike(likerId: number, likedId: number): Promise<void> {
      await db.delete(likes).where(and(eq(likes.likerId, likerId), eq(likes.likedId, likedId)));
    },

    /** Opening a liker's profile clears that liker's new-like flag. */
    async markSeen(userId: number, likerId: number): Promise<void> {
      await db.update(likes).set({ isNew: false }).where(and(eq(likes.likerId, likerId), eq(likes.likedId, userId), eq(likes.isNew, true)));
    },

    /** GET /api/likes.php: the profiles I like, and who likes me (new likes first). */
    async overview(userId: number): Promise<{ profiles: ProfileSummary[]; liked_by: (ProfileSummary & { like_new: boolean })[] }> {
      const today = clock();
      const given = await listProfiles(and(eq(likes.likerId, userId), notBlocked(userId)), 'likedId');
      const received = await listProfiles(and(eq(likes.likedId, userId), notBlocked(userId)), 'likerId');
      return {
        profiles: given.map((r) => toProfileSummary(r as ProfileRow, today)),
        liked_by: received.map((r) => ({ ...toProfileSummary(r as ProfileRow, today), like_new: r.isNew })),
      };
    },
  };
}

export type LikesService = ReturnType<typeof createLikesService>;
