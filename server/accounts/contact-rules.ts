import { and, eq, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { inline, type Values } from '../db/values.ts';
import type { Clock } from '../infra/clock.ts';
import { blocks, profiles, sites, users } from '../db/schema.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { viewerId as viewerOf, type Actor } from '../actor.ts';

/**
 * The sites whose members the members and visitors of site `siteId` meet (decision 051): its own, and, when it
 * resells its members (member_resell), every site of its company that resells too. The relation is symmetric: the
 * members of A meet those of B exactly when the members of B meet those of A. A subquery, for checks of one member
 * whose site is a column; lists take the site ids as values (settings' meetingSites, the same rule), which the
 * planner can walk the search indexes with.
 */
export function meetingSites(siteId: number | AnyColumn | SQL): SQL {
  return sql`(select o.id from ${sites} o join ${sites} v
    on o.id = v.id or (v.member_resell and o.member_resell and o.company_id = v.company_id) where v.id = ${siteId})`;
}

/** Rows whose member's site (`memberSite`) is one the members and visitors of `siteId` meet. */
export function meetsSite(siteId: number | AnyColumn | SQL, memberSite: AnyColumn | SQL): SQL {
  return sql`${memberSite} in ${meetingSites(siteId)}`;
}

/** The site a use case serves the actor on: a member's own site (their session's), a visitor's site; none for jobs. */
export function siteOf(actor: Actor): number | null {
  return 'siteId' in actor ? actor.siteId : null;
}

/** Sites a list shows members of: the ids of settings' meetingSites; null (every site) adds no condition. */
export type SitePool = readonly number[] | null;

/**
 * A listing filter: rows whose member (`otherColumn`) and the viewer have no block between them, either way.
 * Every list of members (likes, chats, search) uses it, so a blocked pair never meet in a list.
 */
export function notBlockedWith(viewerId: number | Placeholder | AnyColumn | SQL, otherColumn: AnyColumn | SQL): SQL {
  return sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${otherColumn}) or (${blocks.blockerId} = ${otherColumn} and ${blocks.blockedId} = ${viewerId}))`;
}

/** Rows whose member's site is in the pool (no condition for every site). */
export function inPool(pool: SitePool, memberSite: AnyColumn, v: Values = inline): SQL | undefined {
  // One array parameter, however many sites: a statement compiled with placeholders (search) has one shape for all.
  return pool === null ? undefined : sql`${memberSite} = any(${v('pool', pool)}::int[])`;
}

/**
 * Who may appear in a list of members at all (search, games): active profiles of accounts that are
 * neither deleted nor invisible, of the sites the actor's site meets (`pool`, contactRules.pool), never the viewer,
 * and no one with a block between them and the viewer. Needs `profiles` joined with `users`. The literal statuses
 * match the partial search indexes.
 */
export function listedFor(actor: Actor, pool: SitePool, now: Date, v: Values = inline): SQL {
  const viewer = viewerOf(actor);
  return listedTo(viewer === null ? null : v('viewer', viewer), inPool(pool, users.siteId, v), v('now', now));
}

/**
 * Accounts not suspended at `now` (decision 063): a suspension ends by itself because every check compares it with
 * the clock. Needs `users`.
 */
export function notSuspended(now: Date | Placeholder): SQL {
  return sql`(${users.suspendedUntil} is null or ${users.suspendedUntil} <= ${now instanceof Date ? now.toISOString() : now}::timestamptz)`;
}

/** A profile other members do not meet: disabled (a ban) or its account suspended at `now`. */
export function hiddenProfile(row: { profileStatus: string | null; suspendedUntil: Date | null }, now: Date): boolean {
  return row.profileStatus === 'disabled' || (row.suspendedUntil !== null && row.suspendedUntil > now);
}

/**
 * listedFor for a statement that knows the viewer only as SQL (a column or a placeholder: the new-likes count of every
 * session's member) and the sites as a condition on `users.site_id` (meetsSite); the same rule.
 */
export function listedTo(viewer: number | Placeholder | AnyColumn | SQL | null, sites: SQL | undefined, now: Date | Placeholder): SQL {
  const parts: SQL[] = [sql`${profiles.status} = 'active'`, sql`${users.status} <> 'deleted'`, sql`not ${users.invisible}`, notSuspended(now)];
  if (sites) parts.push(sites);
  if (viewer !== null) {
    parts.push(sql`${profiles.userId} <> ${viewer}`);
    parts.push(notBlockedWith(viewer, profiles.userId));
  }
  return and(...parts)!;
}

/**
 * Whether a member keeps fictional profiles out of their search, swipe deck and like overlay: their own choice, else
 * their site's default. Needs `users` (the member's) and `sites` (their site's).
 */
export const hidesFictional = sql<boolean>`coalesce(${users.hideFictional}, ${sites.hideFictionalDefault})`;

/** The condition on listed profiles for a member who hides fictional ones (hidesFictional); undefined: none. */
export function fictionalCondition(hide: boolean): SQL | undefined {
  return hide ? sql`not ${profiles.fictional}` : undefined;
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
export function createContactRules(deps: { db: Db; clock: Clock; meetingSites: (siteId: number) => Promise<number[] | null> }) {
  const { db } = deps;

  async function blockedBetween(a: number, b: number): Promise<boolean> {
    const [row] = await db.select({ x: blocks.blockerId }).from(blocks).where(or(
      and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)),
      and(eq(blocks.blockerId, b), eq(blocks.blockedId, a)),
    )).limit(1);
    return Boolean(row);
  }

  const other = alias(users, 'other');
  /**
   * Whether members `a` and `b` do not meet: a block either way, or sites that do not share their members (each
   * member's own site decides, meetingSites). One statement; a member that does not exist is apart from everyone.
   */
  async function apart(a: number, b: number): Promise<boolean> {
    const [row] = await db.select({
      blocked: sql<boolean>`exists (select 1 from ${blocks} where (${blocks.blockerId} = ${a} and ${blocks.blockedId} = ${b}) or (${blocks.blockerId} = ${b} and ${blocks.blockedId} = ${a}))`,
    }).from(users).innerJoin(other, eq(other.id, b)).where(and(eq(users.id, a), meetsSite(users.siteId, other.siteId)));
    return !row || Boolean(row.blocked);
  }

  /** The sites whose members the actor meets in lists (from the site cache); null: every site, or an actor of no site. */
  async function pool(actor: Actor): Promise<SitePool> {
    const siteId = siteOf(actor);
    return siteId === null ? null : deps.meetingSites(siteId);
  }

  return {
    blockedBetween,
    apart,
    pool,
    /**
     * The condition that keeps fictional profiles out of a member's search, swipe deck and like overlay when they
     * chose so (or their site hides them until they choose); undefined when they see them. Visitors see them.
     */
    async fictionalShown(actor: Actor): Promise<SQL | undefined> {
      if (actor.kind !== 'member') return undefined;
      const [row] = await db.select({ hide: hidesFictional })
        .from(users).innerJoin(sites, eq(sites.id, users.siteId)).where(eq(users.id, actor.userId));
      return fictionalCondition(Boolean(row?.hide));
    },
    /** Viewing a profile, liking it: a block either way, or a member of a site the viewer's does not meet, is not there (404). */
    async assertCanSee(viewerId: number | null, profileId: number): Promise<void> {
      if (viewerId && viewerId !== profileId && (await apart(viewerId, profileId))) throw notFound();
    },
    /**
     * Sending a message. Spec section 6: "Unconfirmed e-mail blocks replies from others". A member
     * who has not confirmed their address may write to others (that is how conversations start),
     * but nobody can write to them until they confirm: the address may not even be theirs, and
     * the message notifications would go to it. The sender gets a clear, translated 403
     * (recipient_unconfirmed) saying a reply is possible once the member has confirmed; the
     * unconfirmed member keeps seeing the activation reminder. Blocks come first and stay silent (404), as does a
     * member of a site the sender's does not meet.
     */
    async assertCanMessage(senderId: number, recipientId: number): Promise<void> {
      const blocked = await apart(senderId, recipientId);
      const [recipient] = blocked ? [] : await db.select({ status: users.status }).from(users).where(eq(users.id, recipientId));
      assertMessageAllowed({ blocked, recipientStatus: recipient?.status });
    },
    /** The same rule, for a caller that read the block and the recipient's status itself (a send's one pre-check statement). */
    assertMessageAllowed,
  };
}

export type ContactRules = ReturnType<typeof createContactRules>;
