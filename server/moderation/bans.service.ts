import { and, eq, inArray, ne, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { GROUNDS, type Ground } from '#common/reports.ts';
import { can, requireRoleSomewhere, type Actor } from '../actor.ts';
import type { Db, Tx } from '../db/client.ts';
import { conversations, creditLedger, memberBans, messages, profiles, sessions, users, type BanReason, type LedgerReason } from '../db/schema.ts';
import { addCredits } from '../credits/ledger.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from '../staff/audit.ts';
import type { EventBus } from '../infra/events.ts';
import { deciderOf, type Statements } from './statements.ts';

/** A fake profile or a scammer took members' credits under false pretences: those credits come back. */
const REFUNDED: readonly BanReason[] = ['fake', 'scammer'];
/** The spends on a contact: messages, gifts and photos sent to them. */
const CONTACT_SPENDS: LedgerReason[] = ['message', 'gift', 'chat_photo'];

/** Refunds already booked (a second look at the same ledger). */
const refunded = alias(creditLedger, 'refunded');

/** A suspension lasts 1 to 365 days (decision 063). */
export const SUSPENSION_DAYS_MAX = 365;
const DAY_MS = 86_400_000;

export interface SuspendInput {
  days: number;
  /** The ground of the statement of reasons: the category the member reads. */
  ground: Ground;
  /** The facts, for the statement of reasons (the member reads them) and the audit log. */
  facts: string;
}

/** Lifts a suspension (an appeal upheld) when it is still the one the decision imposed; a later one stays. */
export async function unsuspendInTx(tx: Tx, userId: number, until: Date | null): Promise<void> {
  if (until) await tx.update(users).set({ suspendedUntil: null }).where(and(eq(users.id, userId), eq(users.suspendedUntil, until)));
}

export interface BanResult {
  /** Per member who had spent credits on the banned one: how many came back. */
  refunds: { userId: number; credits: number }[];
}

/** The ground of a ban's statement of reasons, by the ban's reason. */
const BAN_GROUNDS: Record<BanReason, Ground> = {
  fake: 'terms_fake_profile', scammer: 'terms_scam', abuse: 'terms_harassment', underage: 'terms_minor', other: 'terms_general',
};

/**
 * The ban itself, inside the caller's transaction: the profile is disabled, its sessions end and, for a fake profile
 * or a scammer, every credit another member spent on messages, gifts and photos to it is booked back, each spend once
 * (a `ban_refund` row whose reference is the spend's message). Returns the credits refunded per member.
 */
export async function banInTx(tx: Tx, clock: Clock, userId: number, reason: BanReason, note: string): Promise<Map<number, number>> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  if (!user) throw notFound();
  await tx.insert(memberBans).values({ userId, reason, note, createdAt: clock() })
    .onConflictDoUpdate({ target: memberBans.userId, set: { reason, note } });
  await tx.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  if (!REFUNDED.includes(reason)) return new Map<number, number>();

  const spends = await tx.select({ senderId: messages.senderId, reference: creditLedger.reference, delta: creditLedger.delta })
    .from(creditLedger)
    .innerJoin(messages, and(sql`${creditLedger.reference} = ${messages.id}::text`, eq(messages.senderId, creditLedger.userId)))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(
      inArray(creditLedger.reason, CONTACT_SPENDS),
      sql`${creditLedger.delta} < 0`,
      ne(messages.senderId, userId),
      or(eq(conversations.userLow, userId), eq(conversations.userHigh, userId)),
      notExists(tx.select({ one: sql`1` }).from(refunded).where(and(eq(refunded.reason, 'ban_refund'), eq(refunded.reference, creditLedger.reference)))),
    ))
    .orderBy(creditLedger.id);
  const perMember = new Map<number, number>();
  for (const spend of spends) {
    await addCredits(tx, spend.senderId, -spend.delta, 'ban_refund', spend.reference);
    perMember.set(spend.senderId, (perMember.get(spend.senderId) ?? 0) - spend.delta);
  }
  return perMember;
}

/** Lifts a ban (an appeal upheld): the profile is listed again. Credits refunded to others stay refunded. */
export async function unbanInTx(tx: Tx, userId: number): Promise<void> {
  await tx.delete(memberBans).where(eq(memberBans.userId, userId));
  await tx.update(profiles).set({ status: 'active' }).where(eq(profiles.userId, userId));
}

/**
 * Banning a member (the console and `npm run members:ban`), with its audit row and its statement of reasons written in
 * the same transaction (decision 057). Banning again, or with another reason, never refunds twice.
 */
export function createBansService(deps: { db: Db; clock: Clock; events: EventBus; audit: AuditLog; statements: Statements }) {
  const { db, clock, statements } = deps;
  return {
    async ban(actor: Actor, userId: number, reason: BanReason, noteInput = '', { ip = null }: { ip?: string | null } = {}): Promise<BanResult> {
      const by = requireRoleSomewhere(actor, 'moderator');
      const note = noteInput.slice(0, 500);
      const { perMember: refunds, decisionId } = await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id, siteId: users.siteId }).from(users).where(eq(users.id, userId));
        // A member of a site the moderator does not reach is as unknown as a missing one.
        if (!user || (actor.kind === 'staff' && !can(actor, 'moderator', user.siteId))) throw notFound();
        const perMember = await banInTx(tx, clock, userId, reason, note);
        await deps.audit.record(tx, {
          actor: by, role: 'moderator', action: 'member.ban', objectType: 'member', objectId: userId, memberId: userId,
          after: { reason, note, refunded_credits: [...perMember.values()].reduce((a, b) => a + b, 0) }, ip,
        });
        const id = await statements.issue(tx, {
          memberId: userId, restriction: 'banned', content: { kind: 'account' }, facts: note, ground: BAN_GROUNDS[reason],
          automated: false, staffId: deciderOf(actor),
        });
        return { perMember, decisionId: id };
      });
      for (const memberId of refunds.keys()) deps.events.emit('credits.changed', { userId: memberId });
      deps.events.emit('statement.issued', { decisionId });
      return { refunds: [...refunds].map(([id, credits]) => ({ userId: id, credits })) };
    },

    /**
     * Suspends a member for `days` days (decision 063): their sessions end, they cannot log in and other members do not
     * meet them until then; it ends by itself because every check compares the time with the clock. A statement of
     * reasons goes out (appealable; an upheld appeal lifts it). Suspending again replaces the end with the new one.
     */
    async suspend(actor: Actor, userId: number, input: SuspendInput, { ip = null }: { ip?: string | null } = {}): Promise<{ until: string }> {
      const by = requireRoleSomewhere(actor, 'moderator');
      const facts = input.facts.trim();
      if (!Number.isInteger(input.days) || input.days < 1 || input.days > SUSPENSION_DAYS_MAX) {
        throw new AppError(400, 'invalid_input', {}, { days: 'errors.suspension_days' });
      }
      if (!Object.hasOwn(GROUNDS, input.ground)) throw new AppError(400, 'invalid_input', {}, { ground: 'errors.invalid_input' });
      if (facts.length < 3 || facts.length > 500 || /\p{Cc}/u.test(facts)) throw new AppError(400, 'reason_required', {}, { reason: 'errors.reason_required' });
      const until = new Date(clock().getTime() + input.days * DAY_MS);
      const decisionId = await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id, siteId: users.siteId, status: users.status, suspendedUntil: users.suspendedUntil })
          .from(users).where(eq(users.id, userId)).for('update');
        if (!user || (actor.kind === 'staff' && !can(actor, 'moderator', user.siteId))) throw notFound();
        if (user.status === 'deleted') throw new AppError(409, 'member_deleted');
        if (await tx.$count(memberBans, eq(memberBans.userId, userId))) throw new AppError(409, 'member_banned');
        await tx.update(users).set({ suspendedUntil: until }).where(eq(users.id, userId));
        const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
        await deps.audit.record(tx, {
          actor: by, role: 'moderator', action: 'member.suspend', objectType: 'member', objectId: userId, memberId: userId, ip,
          before: { suspended_until: user.suspendedUntil?.toISOString() ?? null },
          after: { suspended_until: until.toISOString(), days: input.days, ground: input.ground, facts, sessions_ended: ended.length },
        });
        return statements.issue(tx, {
          memberId: userId, restriction: 'suspended', content: { kind: 'account' }, suspendedUntil: until, facts, ground: input.ground,
          automated: false, staffId: deciderOf(actor),
        });
      });
      deps.events.emit('statement.issued', { decisionId });
      return { until: until.toISOString() };
    },

    /** Ends a running suspension early (a mistake, or the matter settled); the audit row keeps when it would have ended and why. */
    async endSuspension(actor: Actor, userId: number, noteInput: string, { ip = null }: { ip?: string | null } = {}): Promise<void> {
      const by = requireRoleSomewhere(actor, 'moderator');
      const note = noteInput.trim();
      if (note.length < 3 || note.length > 500) throw new AppError(400, 'reason_required', {}, { reason: 'errors.reason_required' });
      await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id, siteId: users.siteId, suspendedUntil: users.suspendedUntil })
          .from(users).where(eq(users.id, userId)).for('update');
        if (!user || (actor.kind === 'staff' && !can(actor, 'moderator', user.siteId))) throw notFound();
        if (!user.suspendedUntil || user.suspendedUntil <= clock()) throw new AppError(409, 'member_not_suspended');
        await tx.update(users).set({ suspendedUntil: null }).where(eq(users.id, userId));
        await deps.audit.record(tx, {
          actor: by, role: 'moderator', action: 'member.end_suspension', objectType: 'member', objectId: userId, memberId: userId, ip,
          before: { suspended_until: user.suspendedUntil.toISOString() }, after: { suspended_until: null, note },
        });
      });
    },

    /**
     * Lifts a ban by hand (a mistake, or a decision revisited outside an appeal): the profile is listed again. Credits
     * refunded to others stay refunded. The audit row keeps the ban that was lifted and why.
     */
    async unban(actor: Actor, userId: number, noteInput: string, { ip = null }: { ip?: string | null } = {}): Promise<void> {
      const by = requireRoleSomewhere(actor, 'moderator');
      const note = noteInput.trim();
      if (note.length < 3 || note.length > 500) throw new AppError(400, 'reason_required', {}, { reason: 'errors.reason_required' });
      await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id, siteId: users.siteId }).from(users).where(eq(users.id, userId));
        if (!user || (actor.kind === 'staff' && !can(actor, 'moderator', user.siteId))) throw notFound();
        const [ban] = await tx.select().from(memberBans).where(eq(memberBans.userId, userId)).for('update');
        if (!ban) throw new AppError(409, 'member_not_banned');
        await unbanInTx(tx, userId);
        await deps.audit.record(tx, {
          actor: by, role: 'moderator', action: 'member.unban', objectType: 'member', objectId: userId, memberId: userId,
          before: { reason: ban.reason, note: ban.note }, after: { note }, ip,
        });
      });
    },
  };
}
