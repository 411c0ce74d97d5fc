import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { memberFlags, users, type FlagEvidence } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AppEvents } from '../infra/events.ts';
import type { AuditLog } from '../staff/audit.ts';
import { requireRole, requireRoleSomewhere, sitesOf, type StaffActor } from '../actor.ts';
import { FLAG_KINDS, type FlagKind } from '#common/moderation-flags.ts';
import {
  findInMessage, MASS_MESSAGING_RECIPIENTS, MASS_MESSAGING_WINDOW_MS, normalizedText, REPEATED_TEXT_MIN_LENGTH,
  REPEATED_TEXT_RECIPIENTS, REPEATED_TEXT_WINDOW_MS,
} from './flag-rules.ts';

/** Pieces of evidence kept per flag: the first ones; later hits only count. */
const EVIDENCE_KEPT = 10;
const EXCERPT_LENGTH = 200;
/** One page of the queue. */
const QUEUE_PAGE = 50;

export interface FlagRaise {
  siteId: number;
  userId: number;
  kind: FlagKind;
  evidence: Omit<FlagEvidence, 'at'>;
}

/** A page of the flags list: oldest (default) or newest first, after or before the flag of the page next to it. */
export interface FlagPage { order?: 'oldest' | 'newest'; after?: number; before?: number }

/** A flag's place in the list's order, and the place of flag `id` as stored (no rounding of its time on the way). */
const position = sql`(${memberFlags.firstAt}, ${memberFlags.id})`;
const positionOf = (id: number) => sql`(select f.first_at, f.id from member_flags f where f.id = ${id})`;

/** A flag in the members queue: who, why and how often, without the evidence's text (opening that is audited). */
export interface QueuedFlag {
  id: number;
  siteId: number;
  memberId: number;
  kind: FlagKind;
  hits: number;
  firstAt: string;
  lastAt: string;
}

/**
 * Automatic flags (issue 26): the chat's messages are read after they are sent (a durable subscriber of
 * `message.sent`) for contact off the site, requests for money, the same text to many members and mass messaging
 * right after sign-up; the reports against a member raise a flag too. A flag puts the member in the moderators'
 * members queue with its evidence and never restricts anyone: a moderator decides.
 */
export function createFlagsService(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  /**
   * Adds evidence to the member's open flag of this kind, or opens one. The same message is evidence once, so
   * that the outbox running a subscriber again changes nothing.
   */
  async function raise(q: Db | Tx, f: FlagRaise): Promise<void> {
    const now = clock();
    const piece: FlagEvidence = { ...f.evidence, at: now.toISOString() };
    const seen = f.evidence.messageId === undefined
      ? sql`false`
      : sql`${memberFlags.evidence} @> ${JSON.stringify([{ messageId: f.evidence.messageId }])}::jsonb`;
    await q.insert(memberFlags).values({ siteId: f.siteId, userId: f.userId, kind: f.kind, evidence: [piece], firstAt: now, lastAt: now })
      .onConflictDoUpdate({
        target: [memberFlags.userId, memberFlags.kind],
        targetWhere: sql`resolved_at is null`,
        set: {
          hits: sql`${memberFlags.hits} + 1`,
          lastAt: now,
          evidence: sql`case when jsonb_array_length(${memberFlags.evidence}) >= ${EVIDENCE_KEPT} then ${memberFlags.evidence}
            else ${memberFlags.evidence} || ${JSON.stringify([piece])}::jsonb end`,
        },
        setWhere: sql`not (${seen})`,
      });
  }

  /** Reads a sent message and its sender's recent sending for the flags' evidence. */
  async function checkMessage(e: AppEvents['message.sent']): Promise<void> {
    if ((e.kind ?? 'text') !== 'text') return;
    const now = clock();
    const text = normalizedText(e.text);
    // Aliased tables in the subqueries: inside a select's fields the query builder leaves column names unqualified.
    const other = sql`case when c.user_low = ${e.senderId} then c.user_high else c.user_low end`;
    const sameText = text.length >= REPEATED_TEXT_MIN_LENGTH
      ? sql`(select count(distinct ${other}) from messages m join conversations c on c.id = m.conversation_id
          where m.sender_id = ${e.senderId} and m.created_at > ${new Date(now.getTime() - REPEATED_TEXT_WINDOW_MS)}
            and m.kind = 'text' and btrim(lower(regexp_replace(m.body, '\\s+', ' ', 'g'))) = ${text})`
      : sql`0`;
    const [sender] = await db.select({
      siteId: users.siteId,
      signupDate: users.signupDate,
      sameText: sql<number>`${sameText}::int`,
      early: sql<number>`(select count(distinct ${other}) from messages m join conversations c on c.id = m.conversation_id
        where m.sender_id = ${e.senderId} and m.created_at < ${users.signupDate} + ${`${MASS_MESSAGING_WINDOW_MS / 1000} seconds`}::interval)::int`,
    }).from(users).where(eq(users.id, e.senderId));
    if (!sender) return;
    const excerpt = e.text.slice(0, EXCERPT_LENGTH);
    const base = { siteId: sender.siteId, userId: e.senderId };
    const evidence = { messageId: e.messageId, recipientId: e.recipientId, excerpt };
    const raises: FlagRaise[] = findInMessage(e.text).map((f) => ({ ...base, kind: f.kind, evidence: { ...evidence, matched: f.matched } }));
    if (sender.sameText >= REPEATED_TEXT_RECIPIENTS) raises.push({ ...base, kind: 'repeated_text', evidence: { ...evidence, count: sender.sameText } });
    const early = now.getTime() - sender.signupDate.getTime() <= MASS_MESSAGING_WINDOW_MS;
    if (early && sender.early >= MASS_MESSAGING_RECIPIENTS) raises.push({ ...base, kind: 'mass_messaging', evidence: { ...evidence, count: sender.early } });
    if (raises.length) await db.transaction(async (tx) => { for (const r of raises) await raise(tx, r); });
  }

  /** The sites the actor moderates, as a condition on a flag's site (null: every site). */
  function moderatedSites(actor: StaffActor) {
    const sites = sitesOf(requireRoleSomewhere(actor, 'moderator'));
    return sites === null ? undefined : inArray(memberFlags.siteId, [...sites]);
  }

  return {
    raise,
    checkMessage,

    /**
     * Open flags on the moderator's sites, a page at a time in the order the list shows (`first_at`, then id; oldest
     * first unless `order` is newest), with the number per kind. A page starts after or ends before a flag of the page
     * next to it, compared on that same order, so a flag raised or resolved meanwhile neither repeats nor skips another.
     * `prev` and `next` are the flags to page from, null at either end.
     */
    async queue(actor: StaffActor, page: FlagPage = {}): Promise<{ flags: QueuedFlag[]; counts: Record<FlagKind, number>; prev: number | null; next: number | null }> {
      const sites = moderatedSites(actor);
      const open = and(isNull(memberFlags.resolvedAt), sites);
      // Oldest first, the list ascends; reading towards its start (before a flag) goes the other way.
      const forwards = page.order !== 'newest';
      const back = page.before !== undefined;
      const from = page.before ?? page.after;
      const read = (cursor: number | undefined, ascending: boolean, limit: number) => db.select().from(memberFlags)
        .where(and(open, cursor === undefined ? undefined : ascending ? sql`${position} > ${positionOf(cursor)}` : sql`${position} < ${positionOf(cursor)}`))
        .orderBy(...(ascending ? [asc(memberFlags.firstAt), asc(memberFlags.id)] : [desc(memberFlags.firstAt), desc(memberFlags.id)]))
        .limit(limit);
      const rows = await read(from, back ? !forwards : forwards, QUEUE_PAGE + 1);
      const more = rows.length > QUEUE_PAGE;
      const shown = rows.slice(0, QUEUE_PAGE);
      if (back) shown.reverse();
      const [first, last] = [shown.at(0), shown.at(-1)];
      // The side a page was read towards has more when a row too many came; the other side is asked once.
      const before = back ? more : from !== undefined && first !== undefined && (await read(first.id, !forwards, 1)).length > 0;
      const after = back ? last !== undefined && (await read(last.id, forwards, 1)).length > 0 : more;
      const counted = await db.select({ kind: memberFlags.kind, n: count() }).from(memberFlags).where(open).groupBy(memberFlags.kind);
      const counts = Object.fromEntries(FLAG_KINDS.map((k) => [k, counted.find((c) => c.kind === k)?.n ?? 0])) as Record<FlagKind, number>;
      return {
        flags: shown.map((r) => ({ id: r.id, siteId: r.siteId, memberId: r.userId, kind: r.kind, hits: r.hits, firstAt: r.firstAt.toISOString(), lastAt: r.lastAt.toISOString() })),
        counts, prev: before ? first!.id : null, next: after ? last!.id : null,
      };
    },

    /** A flag with its evidence (message excerpts): opening it is written to the audit log. */
    async evidence(actor: StaffActor, flagId: number, ip: string | null = null) {
      return db.transaction(async (tx) => {
        const [flag] = await tx.select().from(memberFlags).where(eq(memberFlags.id, flagId));
        if (!flag) throw notFound();
        requireRole(actor, 'moderator', flag.siteId);
        await audit.record(tx, { actor, role: 'moderator', action: 'flag.open', objectType: 'member_flag', objectId: flag.id, memberId: flag.userId, ip });
        return { id: flag.id, memberId: flag.userId, kind: flag.kind, hits: flag.hits, evidence: flag.evidence };
      });
    },

    /**
     * Closes a flag once a moderator has looked at the member (whatever they decided, which their decision records):
     * a later hit opens a new flag.
     */
    async resolve(actor: StaffActor, flagId: number, ip: string | null = null): Promise<void> {
      await db.transaction(async (tx) => {
        const [flag] = await tx.select().from(memberFlags).where(eq(memberFlags.id, flagId)).for('update');
        if (!flag) throw notFound();
        requireRole(actor, 'moderator', flag.siteId);
        if (flag.resolvedAt) throw new AppError(409, 'flag_resolved');
        const resolvedAt = clock();
        await tx.update(memberFlags).set({ resolvedAt, resolvedBy: actor.staffId }).where(eq(memberFlags.id, flagId));
        await audit.record(tx, {
          actor, role: 'moderator', action: 'flag.resolve', objectType: 'member_flag', objectId: flag.id, memberId: flag.userId, ip,
          before: { resolvedAt: null }, after: { resolvedAt: resolvedAt.toISOString() },
        });
      });
    },
  };
}

export type FlagsService = ReturnType<typeof createFlagsService>;
