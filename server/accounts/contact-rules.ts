import { and, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { blocks } from '../db/schema.ts';
import { notFound } from '../infra/errors.ts';

/**
 * A listing filter: rows whose member (`otherColumn`) and the viewer have no block between them, either way.
 * Every list of members (likes, chats, search) uses it, so a blocked pair never meet in a list.
 */
export function notBlockedWith(viewerId: number, otherColumn: AnyColumn): SQL {
  return sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${otherColumn}) or (${blocks.blockerId} = ${otherColumn} and ${blocks.blockedId} = ${viewerId}))`;
}

/**
 * Who may see and contact whom. A block works both ways and gives no hint: to the blocked member
 * the blocker simply does not exist (404).
 */
export function createContactRules(deps: { db: Db }) {
  const { db } = deps;

  async function blockedBetween(a: number, b: number): Promise<boolean> {
    const [row] = await db.select({ x: blocks.blockerId }).from(blocks).where(or(
      and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)),
      and(eq(blocks.blockerId, b), eq(blocks.blockedId, a)),
    )).limit(1);
    return Boolean(row);
  }

  return {
    blockedBetween,
    /** Viewing a profile, liking it. */
    async assertCanSee(viewerId: number | null, profileId: number): Promise<void> {
      if (viewerId && viewerId !== profileId && (await blockedBetween(viewerId, profileId))) throw notFound();
    },
    /** Sending a message. */
    async assertCanMessage(senderId: number, recipientId: number): Promise<void> {
      if (await blockedBetween(senderId, recipientId)) throw notFound();
    },
  };
}

export type ContactRules = ReturnType<typeof createContactRules>;
