import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { toId } from '#common/input.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  conversationMembers, conversations, creditLedger, likes, memberBans, memberFlags, memberReports, messages, orders, payments, photos, profiles, sessions,
  spendCaps, users,
} from '../db/schema.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { Clock } from '../infra/clock.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { addCredits, takeBackCredits } from '../credits/ledger.ts';
import type { AuditLog } from '../staff/audit.ts';
import { requireRole, requireRoleSomewhere, sitesOf, type StaffActor } from '../actor.ts';
import { reportedConversation } from './conversation-reading.ts';

/** Rows of each list in a member's overview: the newest ones; the counts say how many there are in all. */
const LIST_ROWS = 20;
/** Members found by one search, a page at a time. */
export const FOUND_ROWS = 50;
/** Pages beyond this are not offered: a search that finds more should be narrowed. */
const FOUND_PAGES = 200;

export interface MemberSearch {
  query: string;
  /** 1-based page of FOUND_ROWS. */
  page?: number;
  /** By member id: the newest sign-ups first (default), or the oldest. */
  order?: 'newest' | 'oldest';
}
const QUERY_MAX = 200;

export interface FoundMember {
  id: number;
  siteId: number;
  email: string;
  name: string | null;
  status: string;
  signupDate: string;
}

/** A correction of a member's balance by hand: at most this many credits either way at once. */
export const ADJUSTMENT_MAX = 10_000;

/** Where the request came from, for the audit log. */
export interface StaffRequest {
  ip: string | null;
}

/** The sites the actor supports, as a condition on a member's site (undefined: every site). */
function supportedSites(actor: StaffActor): SQL | undefined {
  const sites = sitesOf(requireRoleSomewhere(actor, 'support'));
  return sites === null ? undefined : inArray(users.siteId, [...sites]);
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
/** A search term taken literally by ILIKE: its own % and _ match themselves. */
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Member support (issue 26): support staff find a member by id, e-mail address, name or payment reference and open
 * their overview. Searching and opening are openings of member data: each writes an audit row in the same
 * transaction as the read. Staff reach the members of their own sites only.
 */
export function createMemberSupport(deps: {
  db: Db; clock: Clock; audit: AuditLog;
  /** The member's mails that support may send again: activation and a password-reset link. */
  mails: { sendActivation(userId: number): Promise<void>; sendPasswordReset(userId: number): Promise<void> };
}) {
  const { db, clock, audit, mails } = deps;

  /** The member of a support action, locked for it, after the actor's role and site are checked. */
  async function memberFor(tx: Tx, actor: StaffActor, memberId: number) {
    const [u] = await tx.select({ id: users.id, siteId: users.siteId, status: users.status, credits: users.credits })
      .from(users).where(eq(users.id, memberId)).for('update');
    if (!u) throw notFound();
    requireRole(actor, 'support', u.siteId);
    return u;
  }

  return {
    /**
     * Members matching `query`: a member id, an e-mail address (whole, or its beginning), the beginning of a name,
     * an order id, an invoice number or a provider's payment reference; FOUND_ROWS a page, newest or oldest first, and
     * whether another page follows.
     */
    async find(actor: StaffActor, input: MemberSearch, from: StaffRequest): Promise<{ members: FoundMember[]; hasMore: boolean }> {
      const sites = supportedSites(actor);
      const query = input.query.trim();
      const page = input.page ?? 1;
      const order = input.order ?? 'newest';
      if (!query || query.length > QUERY_MAX || /\p{Cc}/u.test(query)) throw new AppError(400, 'invalid_input');
      if (!Number.isInteger(page) || page < 1 || page > FOUND_PAGES || (order !== 'newest' && order !== 'oldest')) throw new AppError(400, 'invalid_input');
      const id = toId(query);
      const byOrder = db.select({ userId: orders.userId }).from(orders).leftJoin(payments, eq(payments.orderId, orders.id))
        .where(or(eq(orders.id, query), eq(orders.invoiceNumber, query), eq(payments.providerRef, query)));
      const matches = or(
        id === null ? undefined : eq(users.id, id),
        ilike(users.email, `${literal(query)}%`),
        ilike(profiles.name, `${literal(query)}%`),
        inArray(users.id, byOrder),
      );
      return db.transaction(async (tx) => {
        const rows = await tx.select({
          id: users.id, siteId: users.siteId, email: users.email, name: profiles.name, status: users.status, signupDate: users.signupDate,
        }).from(users).leftJoin(profiles, eq(profiles.userId, users.id))
          .where(and(matches, sites)).orderBy(order === 'newest' ? desc(users.id) : asc(users.id))
          .limit(FOUND_ROWS + 1).offset((page - 1) * FOUND_ROWS);
        const members = rows.slice(0, FOUND_ROWS);
        await audit.record(tx, { actor, role: 'support', action: 'member.search', objectType: 'member_search', after: { query, page, order, found: members.length }, ip: from.ip });
        return { members: members.map((r) => ({ ...r, signupDate: r.signupDate.toISOString() })), hasMore: rows.length > FOUND_ROWS };
      });
    },

    /**
     * What support sees of a member: account, profile and photos, settings, sessions, orders, the credit ledger and
     * spend cap, likes and conversations (counts and partners, never their text), bans and open automatic flags.
     */
    async overview(actor: StaffActor, memberId: number, from: StaffRequest) {
      return db.transaction(async (tx) => {
        const [member] = await tx.select().from(users).leftJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, memberId));
        if (!member) throw notFound();
        requireRole(actor, 'support', member.users.siteId);
        const u = member.users;
        // One after the other: a transaction's queries share one connection.
        const photoRows = await tx.select({ id: photos.id, status: photos.status, reviewed: photos.reviewed, isPrivate: photos.isPrivate, createdAt: photos.createdAt })
          .from(photos).where(eq(photos.userId, memberId)).orderBy(desc(photos.id));
        const sessionRows = await tx.select({ createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, expiresAt: sessions.expiresAt, userAgent: sessions.userAgent })
          .from(sessions).where(eq(sessions.userId, memberId)).orderBy(desc(sessions.lastUsedAt)).limit(LIST_ROWS);
        const orderRows = await tx.select({
          id: orders.id, credits: orders.credits, amountCents: orders.amountCents, currency: orders.currency, paymentmethod: orders.paymentmethod,
          status: orders.status, createdAt: orders.createdAt, refundedAt: orders.refundedAt, refundedCents: orders.refundedCents, invoiceNumber: orders.invoiceNumber,
        }).from(orders).where(eq(orders.userId, memberId)).orderBy(desc(orders.createdAt)).limit(LIST_ROWS);
        const ledgerRows = await tx.select({ id: creditLedger.id, delta: creditLedger.delta, balanceAfter: creditLedger.balanceAfter, reason: creditLedger.reason, createdAt: creditLedger.createdAt })
          .from(creditLedger).where(eq(creditLedger.userId, memberId)).orderBy(desc(creditLedger.id)).limit(LIST_ROWS);
        const [cap] = await tx.select().from(spendCaps).where(eq(spendCaps.userId, memberId));
        const [likesGiven] = await tx.select({ n: count() }).from(likes).where(eq(likes.likerId, memberId));
        const [likesReceived] = await tx.select({ n: count() }).from(likes).where(eq(likes.likedId, memberId));
        const conversationRows = await tx.select({
          id: conversations.id,
          otherId: sql<number>`case when ${conversations.userLow} = ${memberId} then ${conversations.userHigh} else ${conversations.userLow} end`,
          lastMessageAt: conversations.lastMessageAt,
          sent: sql<number>`(select count(*) from messages m where m.conversation_id = ${conversations.id} and m.sender_id = ${memberId})::int`,
          received: sql<number>`(select count(*) from messages m where m.conversation_id = ${conversations.id} and m.sender_id <> ${memberId})::int`,
          reported: reportedConversation(),
        }).from(conversations).innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.userId, memberId)))
          .orderBy(sql`${conversations.lastMessageAt} desc nulls last`).limit(LIST_ROWS);
        const [ban] = await tx.select().from(memberBans).where(eq(memberBans.userId, memberId));
        const flagRows = await tx.select({ id: memberFlags.id, kind: memberFlags.kind, hits: memberFlags.hits, firstAt: memberFlags.firstAt })
          .from(memberFlags).where(and(eq(memberFlags.userId, memberId), isNull(memberFlags.resolvedAt)));
        const report = { id: memberReports.id, kind: memberReports.kind, reason: memberReports.reason, status: memberReports.status, createdAt: memberReports.createdAt };
        const reportsBy = await tx.select({ ...report, otherId: memberReports.reportedId }).from(memberReports)
          .where(eq(memberReports.reporterId, memberId)).orderBy(desc(memberReports.id)).limit(LIST_ROWS);
        const reportsAbout = await tx.select({ ...report, otherId: memberReports.reporterId }).from(memberReports)
          .where(eq(memberReports.reportedId, memberId)).orderBy(desc(memberReports.id)).limit(LIST_ROWS);
        const [conversationCount] = await tx.select({ n: count() }).from(conversationMembers).where(eq(conversationMembers.userId, memberId));
        const [sentCount] = await tx.select({ n: count() }).from(messages).where(eq(messages.senderId, memberId));
        await audit.record(tx, { actor, role: 'support', action: 'member.open', objectType: 'member', objectId: memberId, memberId, ip: from.ip });
        const p = member.profiles;
        return {
          account: {
            id: u.id, siteId: u.siteId, email: u.email, status: u.status, language: u.language, credits: u.credits, paidUser: u.paidUser,
            signupDate: u.signupDate.toISOString(), activatedAt: iso(u.activatedAt), lastActiveAt: iso(u.lastActiveAt), deletedAt: iso(u.deletedAt),
            lockedUntil: iso(u.lockedUntil), suspendedUntil: u.suspendedUntil && u.suspendedUntil > clock() ? u.suspendedUntil.toISOString() : null, invisible: u.invisible, emailOptOut: u.emailOptOut, pushState: u.pushState,
          },
          profile: p && { name: p.name, gender: p.gender, birthDate: p.birthDate, country: p.country, region: p.region, about: p.about, status: p.status, fictional: p.fictional },
          photos: photoRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
          sessions: sessionRows.map((r) => ({ createdAt: r.createdAt.toISOString(), lastUsedAt: r.lastUsedAt.toISOString(), expiresAt: r.expiresAt.toISOString(), userAgent: r.userAgent })),
          orders: orderRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), refundedAt: iso(r.refundedAt) })),
          ledger: ledgerRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
          spendCap: cap ? { period: cap.period, credits: cap.credits, pendingPeriod: cap.pendingPeriod, pendingCredits: cap.pendingCredits, pendingFrom: iso(cap.pendingFrom) } : null,
          likes: { given: likesGiven.n, received: likesReceived.n },
          conversations: { count: conversationCount.n, messagesSent: sentCount.n, latest: conversationRows.map((r) => ({ ...r, lastMessageAt: iso(r.lastMessageAt) })) },
          ban: ban ? { reason: ban.reason, note: ban.note, createdAt: ban.createdAt.toISOString() } : null,
          flags: flagRows.map((r) => ({ ...r, firstAt: r.firstAt.toISOString() })),
          reports: {
            by: reportsBy.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
            about: reportsAbout.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
          },
        };
      });
    },

    /**
     * Credits added or taken back by hand, with the reason the member's credit history and the audit log keep. The
     * client's idempotency key makes a retry answer the first booking; taking back stops at the balance.
     */
    async adjustCredits(actor: StaffActor, memberId: number, input: { credits: number; reason: string; idempotencyKey: string }, from: StaffRequest) {
      const { credits, idempotencyKey } = input;
      const reason = input.reason.trim();
      if (!Number.isInteger(credits) || credits === 0 || Math.abs(credits) > ADJUSTMENT_MAX) {
        throw new AppError(400, 'invalid_input', {}, { credits: 'errors.adjustment_credits' });
      }
      if (reason.length < 3 || reason.length > 500 || /\p{Cc}/u.test(reason)) throw new AppError(400, 'invalid_input', {}, { reason: 'errors.reason_required' });
      const reference = `staff:${actor.staffId}:${idempotencyKey}`;
      try {
        return await db.transaction(async (tx) => {
          const u = await memberFor(tx, actor, memberId);
          const [done] = await tx.select({ delta: creditLedger.delta, balanceAfter: creditLedger.balanceAfter }).from(creditLedger)
            .where(and(eq(creditLedger.reason, 'adjustment'), eq(creditLedger.reference, reference)));
          if (done) return { credits: done.delta, balance: done.balanceAfter };
          const delta = credits > 0 ? credits : -(await takeBackCredits(tx, memberId, -credits, 'adjustment', reference));
          const balance = credits > 0 ? await addCredits(tx, memberId, credits, 'adjustment', reference) : u.credits + delta;
          await audit.record(tx, {
            actor, role: 'support', action: 'member.adjust_credits', objectType: 'member', objectId: memberId, memberId, ip: from.ip,
            before: { credits: u.credits }, after: { credits: balance, delta, reason },
          });
          return { credits: delta, balance };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'idempotency_key_reused');
        throw error;
      }
    },

    /** Signs the member out everywhere (a stolen device, a shared computer). */
    async endSessions(actor: StaffActor, memberId: number, from: StaffRequest): Promise<{ ended: number }> {
      return db.transaction(async (tx) => {
        await memberFor(tx, actor, memberId);
        const ended = (await tx.delete(sessions).where(eq(sessions.userId, memberId)).returning({ id: sessions.id })).length;
        await audit.record(tx, { actor, role: 'support', action: 'member.end_sessions', objectType: 'member', objectId: memberId, memberId, ip: from.ip, after: { ended } });
        return { ended };
      });
    },

    /** The activation mail again, for an account not yet confirmed. */
    async resendActivation(actor: StaffActor, memberId: number, from: StaffRequest): Promise<void> {
      await db.transaction(async (tx) => {
        const u = await memberFor(tx, actor, memberId);
        if (u.status !== 'not_confirmed') throw new AppError(409, 'already_activated');
        await audit.record(tx, { actor, role: 'support', action: 'member.resend_activation', objectType: 'member', objectId: memberId, memberId, ip: from.ip });
      });
      await mails.sendActivation(memberId);
    },

    /** A password-reset link mailed to the member's own address (support never sets or sees a password). */
    async sendPasswordReset(actor: StaffActor, memberId: number, from: StaffRequest): Promise<void> {
      await db.transaction(async (tx) => {
        const u = await memberFor(tx, actor, memberId);
        if (u.status === 'deleted') throw new AppError(409, 'member_deleted');
        await audit.record(tx, { actor, role: 'support', action: 'member.send_password_reset', objectType: 'member', objectId: memberId, memberId, ip: from.ip, after: { at: clock().toISOString() } });
      });
      await mails.sendPasswordReset(memberId);
    },

    /**
     * Marks a profile as fictional (answered by staff; members see the site's marking wherever they meet it) or takes
     * the mark off. Moderators of the member's site; the audit row keeps before, after and why.
     */
    async setFictional(actor: StaffActor, memberId: number, input: { fictional: boolean; reason: string }, from: StaffRequest): Promise<{ fictional: boolean }> {
      const reason = input.reason.trim();
      if (reason.length < 3 || reason.length > 500 || /\p{Cc}/u.test(reason)) throw new AppError(400, 'invalid_input', {}, { reason: 'errors.reason_required' });
      return db.transaction(async (tx) => {
        const [row] = await tx.select({ siteId: users.siteId, fictional: profiles.fictional }).from(users)
          .innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, memberId)).for('update');
        if (!row) throw notFound();
        requireRole(actor, 'moderator', row.siteId);
        if (row.fictional !== input.fictional) await tx.update(profiles).set({ fictional: input.fictional }).where(eq(profiles.userId, memberId));
        await audit.record(tx, {
          actor, role: 'moderator', action: 'member.fictional', objectType: 'member', objectId: memberId, memberId, ip: from.ip,
          before: { fictional: row.fictional }, after: { fictional: input.fictional, reason },
        });
        return { fictional: input.fictional };
      });
    },
  };
}

export type MemberSupport = ReturnType<typeof createMemberSupport>;
