import { and, desc, eq, ne } from 'drizzle-orm';
import type { ProfileSummary } from '#common/api-types.ts';
import type { Db } from '../db/client.ts';
import { blocks, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { requireMember, type Actor } from '../actor.ts';
import { profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';

/**
 * Blocking. From the moment of the block, neither member can see, like or message the other (see
 * contact-rules.ts); the blocked member only ever gets "not found". The blocker keeps a way back:
 * the blocked profile stays reachable for them, with an unblock action, and in their block list.
 */
export function createBlocksService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    /** Blocking twice changes nothing. A member who has blocked you cannot be blocked back: they are "not found". */
    async block(actor: Actor, blockedId: number): Promise<void> {
      const { userId: blockerId } = requireMember(actor);
      if (blockerId === blockedId) throw new AppError(400, 'cannot_block_self');
      const [target] = await db.select({ status: users.status }).from(users).innerJoin(profiles, eq(profiles.userId, users.id))
        .where(eq(users.id, blockedId));
      if (!target || target.status === 'deleted') throw notFound();
      const [theyBlockedMe] = await db.select({ x: blocks.blockerId }).from(blocks)
        .where(and(eq(blocks.blockerId, blockedId), eq(blocks.blockedId, blockerId)));
      if (theyBlockedMe) throw notFound();
      await db.insert(blocks).values({ blockerId, blockedId, createdAt: clock() }).onConflictDoNothing();
    },

    /** Only the blocker can lift a block; unblocking someone you never blocked is "not found". */
    async unblock(actor: Actor, blockedId: number): Promise<void> {
      const { userId: blockerId } = requireMember(actor);
      const removed = await db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
        .returning({ x: blocks.blockedId });
      if (!removed.length) throw notFound();
    },

    /** The members I blocked, newest first. */
    async list(actor: Actor): Promise<ProfileSummary[]> {
      const { userId: blockerId } = requireMember(actor);
      const rows = await db.select(profileColumns).from(blocks)
        .innerJoin(profiles, eq(profiles.userId, blocks.blockedId))
        .innerJoin(users, eq(users.id, profiles.userId))
        .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
        .where(and(eq(blocks.blockerId, blockerId), ne(users.status, 'deleted')))
        .orderBy(desc(blocks.createdAt));
      const today = clock();
      return rows.map((r) => toProfileSummary(r as ProfileRow, today));
    },
  };
}
