import { and, eq, gt, inArray, isNull, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { AppError } from '../infra/errors.ts';
import type { StaffActor } from '../staff/staff-actor.ts';

/** Opening an item holds it for its moderator this long: no one else decides it meanwhile. */
export const CLAIM_MS = 10 * 60_000;
/** A queue's page: the console shows this many items, with links to the next and previous pages. */
export const QUEUE_PAGE = 50;

/** Where a request came from, for the audit log. */
export interface From { ip?: string | null }

/** One page of a queue, oldest first; `has_more` when a next page has items. */
export interface QueuePage<T> { items: T[]; page: number; has_more: boolean }

/** The sites a moderator's queue shows: every site (no condition), or theirs; 403 without the role. */
export function staffScope(actor: StaffActor, column: Parameters<typeof inArray>[0]): SQL | undefined {
  if (!actor.roles.includes('moderator') && !actor.roles.includes('admin')) throw new AppError(403, 'forbidden');
  if (actor.siteIds === null) return undefined;
  return actor.siteIds.length ? inArray(column, [...actor.siteIds]) : sql`false`;
}

/** Free to claim: nobody holds it, the hold ran out, or it is the actor's own. */
export const claimable = (claimedBy: AnyColumn, until: AnyColumn, actor: StaffActor, now: Date) =>
  or(isNull(claimedBy), lt(until, now), eq(claimedBy, actor.staffId));
/** Free for a decision by `staffId` (null: a job or the command line): nobody else holds it now. */
export const freeFor = (claimedBy: AnyColumn, until: AnyColumn, staffId: number | null, now: Date) =>
  or(isNull(claimedBy), lt(until, now), staffId === null ? undefined : eq(claimedBy, staffId));
/** A live hold of the actor's own. */
export const heldBy = (claimedBy: AnyColumn, until: AnyColumn, actor: StaffActor, now: Date) =>
  and(eq(claimedBy, actor.staffId), gt(until, now));

/** Who holds an item now and until when (nobody once the hold ran out). */
export function heldNow(row: { claimedBy: number | null; claimedUntil: Date | null }, now: Date) {
  const live = row.claimedUntil !== null && row.claimedUntil > now;
  return { claimed_by: live ? row.claimedBy : null, claimed_until: live ? row.claimedUntil!.toISOString() : null };
}

/** A page number from the outside: a whole number from 1 (anything else is the first page). */
export const pageNumber = (page: unknown) => (typeof page === 'number' && Number.isSafeInteger(page) && page >= 1 ? Math.min(page, 100_000) : 1);

/** Reads page `page` (from 1) with `read(limit, offset)`, one row more than it shows to tell whether another page follows. */
export async function queuePage<T>(page: number | undefined, read: (limit: number, offset: number) => Promise<T[]>): Promise<QueuePage<T>> {
  const n = pageNumber(page);
  const rows = await read(QUEUE_PAGE + 1, (n - 1) * QUEUE_PAGE);
  return { items: rows.slice(0, QUEUE_PAGE), page: n, has_more: rows.length > QUEUE_PAGE };
}
