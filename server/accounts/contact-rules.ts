import { and, eq, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { blocks, profiles, users } from '../db/schema.ts';
import { AppError, notFound } from '../infra/errors.ts';

/**
 * A listing filter: rows whose member (`otherColumn`) and the viewer have no block between them, either way.
 * Every list of members (likes, chats, search) uses it, so a blocked pair never meet in a list.
 */
export function notBlockedWith(viewerId: number | Placeholder, otherColumn: AnyColumn): SQL {
  return sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${otherColumn}) or (${blocks.blockerId} = ${otherColumn} and ${blocks.blockedId} = ${viewerId}))`;
}

/**
 * Who may appear in a list of members at all (search, games): active profiles of accounts that are
 * neither deleted nor invisible, never the viewer, and no one with a block between them and the
 * viewer. Needs `profiles` joined with `users`. The literal statuses match the partial search indexes.
 */
export function listedFor(viewerId: number | null): SQL {
  const parts: SQL[] = [sql`${profiles.status} = 'active'`, sql`${users.status} <> 'deleted'`, sql`not ${users.invisible}`];
  if (viewerId) {
    parts.push(sql`${profiles.userId} <> ${viewerId}`);
    parts.push(notBlockedWith(viewerId, profiles.userId));
  }
  return and(...parts)!;
}

/** Sending a message (see assertCanMessage): a block either way hides the recipient (404), an unconfirmed one refuses (403). */
function assertMessageAllowed(facts: { blocked: boolean; recipientStatus: string | null | undefined }): void {
  if (facts.blocked) throw notFound();
  if (facts.recipientStatus === 'not_confirmed') throw new AppError(403, 'recipient_unconfirmed');
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
    /**
     * Sending a message. Spec section 6: "Unconfirmed e-mail blocks replies from others". A member
     * who has not confirmed their address may write to others (that is how conversations start),
     * but nobody can write to them until they confirm: the address may not even be theirs, and
     * the message notifications would go to it. The sender gets a clear, translated 403
     * (recipient_unconfirmed) saying a reply is possible once the member has confirmed; the
     * unconfirmed member keeps seeing the activation reminder. Blocks come first and stay silent (404).
     */
    async assertCanMessage(senderId: number, recipientId: number): Promise<void> {
      const blocked = await blockedBetween(senderId, recipientId);
      const [recipient] = blocked ? [] : await db.select({ status: users.status }).from(users).where(eq(users.id, recipientId));
      assertMessageAllowed({ blocked, recipientStatus: recipient?.status });
    },
    /** The same rule, for a caller that read the block and the recipient's status itself (a send's one pre-check statement). */
    assertMessageAllowed,
  };
}

export type ContactRules = ReturnType<typeof createContactRules>;
