import { and, desc, eq, gte } from 'drizzle-orm';
import type { ProfileSummary } from '#common/api-types.ts';
import type { Db } from '../db/client.ts';
import { likes, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { requireMember, type Actor, type MemberActor } from '../actor.ts';
import type { EventBus } from '../infra/events.ts';
import { hiddenProfile, inPool, listedFor, notBlockedWith, type ContactRules } from '../accounts/contact-rules.ts';
import { profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';

/** The likes lists apply the listing rule without a viewer: blocks and the site pool come from `shown` (above all, per member). */
const LIST_VIEWER: Actor = { kind: 'system', job: 'likes lists' };

/** Where a like was given; 'lander': on the swipe lander before the account existed, given at sign-up. */
export type LikeSource = 'profile' | 'swipe' | 'match_finder' | 'lander';

/** The overlay shows likes of the last week; older ones wait in the likes list. */
const AUTO_LIKE_WINDOW_MS = 7 * 24 * 3_600_000;

export function createLikesService(deps: { db: Db; clock: Clock; events: EventBus; contactRules: ContactRules }) {
  const { db, clock } = deps;

  async function assertLikeable(likerId: number, likedId: number) {
    if (likerId === likedId) throw new AppError(400, 'cannot_like_self');
    const [target] = await db
      .select({ status: users.status, profileStatus: profiles.status, suspendedUntil: users.suspendedUntil })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, likedId));
    if (!target || target.status === 'deleted' || hiddenProfile(target, clock())) throw notFound();
    await deps.contactRules.assertCanSee(likerId, likedId);
  }

  /**
   * A block hides the pair from each other's lists too, as does a site the member's does not meet (decision 051): a
   * like given while two sites shared their members waits unseen while they do not.
   */
  const shown = async (member: MemberActor) => and(notBlockedWith(member.userId, profiles.userId), inPool(await deps.contactRules.pool(member), users.siteId));

  function listProfiles(where: ReturnType<typeof and>, joinOn: 'likerId' | 'likedId') {
    return db
      .select({ ...profileColumns, isNew: likes.isNew, likedAt: likes.createdAt })
      .from(likes)
      .innerJoin(profiles, eq(profiles.userId, likes[joinOn]))
      .innerJoin(users, eq(users.id, profiles.userId))
      .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
      // The listing rule: deleted, disabled and invisible members stay out of other members' likes lists (the
      // viewer is never in their own list; blocks are applied by the callers, notBlocked).
      .where(and(where, listedFor(LIST_VIEWER, null, clock())))
      .orderBy(desc(likes.isNew), desc(likes.createdAt));
  }

  return {
    /**
     * Liking twice is harmless: the second call changes nothing. Returns whether it is now a match.
     * A `quota` (the swipe game's likes per day) is counted and used in one transaction that holds
     * the liker's row, so parallel likes cannot pass it together.
     */
    async like(actor: Actor, likedId: number, options: { source?: LikeSource; quota?: { max: number; since: Date; until: Date } } = {}): Promise<{ match: boolean }> {
      const { userId: likerId } = requireMember(actor);
      await assertLikeable(likerId, likedId);
      const source = options.source ?? 'profile';
      const { created, match } = await db.transaction(async (tx) => {
        if (options.quota) {
          await tx.select({ id: users.id }).from(users).where(eq(users.id, likerId)).for('update');
          const used = await tx.$count(likes, and(eq(likes.likerId, likerId), eq(likes.source, source), gte(likes.createdAt, options.quota.since)));
          const [already] = await tx.select({ x: likes.likerId }).from(likes).where(and(eq(likes.likerId, likerId), eq(likes.likedId, likedId)));
          if (!already && used >= options.quota.max) throw new AppError(429, 'like_limit_reached', { max: options.quota.max, retry_after: Math.ceil((options.quota.until.getTime() - clock().getTime()) / 1000) });
        }
        const inserted = await tx.insert(likes).values({ likerId, likedId, source, createdAt: clock() }).onConflictDoNothing().returning({ x: likes.likerId });
        const [back] = await tx.select({ x: likes.likerId }).from(likes).where(and(eq(likes.likerId, likedId), eq(likes.likedId, likerId)));
        if (inserted.length) await deps.events.record(tx, 'like.created', { likerId, likedId, match: Boolean(back) });
        return { created: inserted.length > 0, match: Boolean(back) };
      });
      if (created) deps.events.emit('like.created', { likerId, likedId, match });
      return { match };
    },

    /** Likes given from `source` since an instant (the swipe game's count for today). */
    async countGiven(actor: Actor, source: LikeSource, since: Date): Promise<number> {
      const { userId: likerId } = requireMember(actor);
      return db.$count(likes, and(eq(likes.likerId, likerId), eq(likes.source, source), gte(likes.createdAt, since)));
    },

    /**
     * GET /api/auto-like.php: the newest like this member has not looked at yet (from the last 7
     * days), for the new-like overlay; null when there is none.
     */
    async autoLike(actor: Actor): Promise<(ProfileSummary & { like_new: boolean; match: boolean }) | null> {
      const member = requireMember(actor);
      const { userId } = member;
      const since = new Date(clock().getTime() - AUTO_LIKE_WINDOW_MS);
      const [row] = await listProfiles(and(eq(likes.likedId, userId), eq(likes.isNew, true), gte(likes.createdAt, since), await shown(member), await deps.contactRules.fictionalShown(member)), 'likerId').limit(1);
      if (!row) return null;
      const [back] = await db.select({ x: likes.likerId }).from(likes).where(and(eq(likes.likerId, userId), eq(likes.likedId, row.id)));
      return { ...toProfileSummary(row as ProfileRow, clock()), like_new: true, match: Boolean(back) };
    },

    async unlike(actor: Actor, likedId: number): Promise<void> {
      const { userId: likerId } = requireMember(actor);
      await db.delete(likes).where(and(eq(likes.likerId, likerId), eq(likes.likedId, likedId)));
    },

    /** Opening a liker's profile clears that liker's new-like flag. */
    async markSeen(actor: Actor, likerId: number): Promise<void> {
      const { userId } = requireMember(actor);
      await db.update(likes).set({ isNew: false }).where(and(eq(likes.likerId, likerId), eq(likes.likedId, userId), eq(likes.isNew, true)));
    },

    /** GET /api/likes.php: the profiles I like, and who likes me (new likes first). */
    async overview(actor: Actor): Promise<{ profiles: ProfileSummary[]; liked_by: (ProfileSummary & { like_new: boolean })[] }> {
      const member = requireMember(actor);
      const { userId } = member;
      const today = clock();
      const seen = await shown(member);
      const given = await listProfiles(and(eq(likes.likerId, userId), seen), 'likedId');
      const received = await listProfiles(and(eq(likes.likedId, userId), seen), 'likerId');
      return {
        profiles: given.map((r) => toProfileSummary(r as ProfileRow, today)),
        liked_by: received.map((r) => ({ ...toProfileSummary(r as ProfileRow, today), like_new: r.isNew })),
      };
    },
  };
}

export type LikesService = ReturnType<typeof createLikesService>;
