import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ACTIONS_FOR, GROUND_KEYS, REPORT_ACTIONS, type Ground, type ReportAction, type ReportKind, type ReportReason } from '#common/reports.ts';
import type { Db, Tx } from '../db/client.ts';
import { appeals, chatPhotos, memberReports, messages, moderationDecisions, notices, photos, profiles, type BanReason } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { AuditLog } from '../staff/audit.ts';
import { can, requireRole, type StaffActor } from '../staff/staff-actor.ts';
import { reviewPhotoInTx } from '../photos/photos.service.ts';
import { banInTx, unbanInTx, unsuspendInTx } from './bans.service.ts';
import { decideNoticeInTx } from './notices.service.ts';
import { neutralName } from './text-reviews.ts';
import { CLAIM_MS, claimable, heldBy, heldNow, queuePage, staffScope as scope, type From, type QueuePage } from './queue-shared.ts';
import type { StatementInput, Statements } from './statements.ts';

export { CLAIM_MS } from './queue-shared.ts';

export interface QueueReport {
  id: number;
  site_id: number;
  reporter_id: number;
  reported_id: number;
  reported_name: string | null;
  kind: ReportKind;
  content_id: number | null;
  reason: ReportReason;
  text: string;
  created_at: string;
  claimed_by: number | null;
  claimed_until: string | null;
}

export interface QueueNotice {
  reference: string;
  site_id: number;
  kind: 'profile' | 'photo' | 'message' | 'other';
  content: string;
  reason: string;
  explanation: string;
  created_at: string;
  claimed_by: number | null;
  claimed_until: string | null;
}

export interface QueueAppeal {
  id: number;
  site_id: number;
  decision_id: number;
  member_id: number;
  restriction: string;
  ground: string;
  text: string;
  created_at: string;
  claimed_by: number | null;
  claimed_until: string | null;
}

const decideReportInput = z.object({
  action: z.enum(REPORT_ACTIONS),
  ground: z.enum(GROUND_KEYS),
  /** The facts and circumstances, in the moderator's words; the statement shows the ground's own text when empty. */
  facts: z.string().trim().max(3000).default(''),
});
export type DecideReportInput = z.input<typeof decideReportInput>;

/** Who and what a restriction applies to, and what led to it. */
interface Target { memberId: number; contentId: number; reportId?: number; noticeId?: number }

const decideNoticeInput = decideReportInput.extend({
  /** What the notifier reads on the follow page (DSA Art. 16(5)). */
  decision: z.string().trim().min(1).max(3000),
});
export type DecideNoticeInput = z.input<typeof decideNoticeInput>;

const decideAppealInput = z.object({ outcome: z.enum(['reversed', 'confirmed']) });
export type DecideAppealInput = z.input<typeof decideAppealInput>;

/** The ban's reason (which decides whether others' credits come back) follows the ground. */
const BAN_REASON_OF: Partial<Record<Ground, BanReason>> = {
  terms_fake_profile: 'fake', terms_scam: 'scammer', terms_harassment: 'abuse', terms_hate: 'abuse', terms_minor: 'underage',
};

const invalid = () => new AppError(400, 'invalid_input');

/**
 * The moderators' side of reports and appeals (decision 057), for the console's queues: a read per kind (oldest
 * first, with counts, within the actor's sites), a claim of ten minutes taken by a conditional update, and a decision
 * from the catalogue that restricts through the areas' own steps, writes the statement of reasons and the audit row,
 * all in one transaction. An appeal goes to a moderator other than the one who decided.
 */
export function createModerationQueue(deps: { db: Db; clock: Clock; events: EventBus; audit: AuditLog; statements: Statements }) {
  const { db, clock, events, audit, statements } = deps;

  async function loadReport(id: number) {
    const [row] = await db.select().from(memberReports).where(eq(memberReports.id, id));
    if (!row) throw notFound();
    return row;
  }

  async function loadAppeal(actor: StaffActor, id: number) {
    const [row] = await db.select({ appeal: appeals, decision: moderationDecisions }).from(appeals)
      .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId)).where(eq(appeals.id, id));
    if (!row) throw notFound();
    requireRole(actor, 'moderator', row.decision.siteId);
    // DSA Art. 20(6): the appeal is not decided by the one whose decision it questions.
    if (row.decision.staffId === actor.staffId) throw new AppError(403, 'appeal_same_moderator');
    if (row.appeal.status !== 'open') throw new AppError(409, 'appeal_already_decided');
    return row;
  }

  async function loadNotice(reference: string) {
    const [row] = await db.select().from(notices).where(eq(notices.reference, reference));
    if (!row) throw notFound();
    return row;
  }

  /** The member a notice names and the photo or message it points at (a profile notice: the member alone). */
  async function noticeTarget(notice: typeof notices.$inferSelect): Promise<Target | null> {
    const id = Number(notice.contentRef);
    if (!Number.isSafeInteger(id) || id < 1) return null;
    if (notice.kind === 'profile') return { memberId: id, contentId: 0 };
    if (notice.kind === 'photo') {
      const [photo] = await db.select({ userId: photos.userId }).from(photos).where(eq(photos.id, id));
      return photo ? { memberId: photo.userId, contentId: id } : null;
    }
    if (notice.kind === 'message') {
      const [message] = await db.select({ senderId: messages.senderId }).from(messages).where(eq(messages.id, id));
      return message ? { memberId: message.senderId, contentId: id } : null;
    }
    return null;
  }

  /**
   * Applies a restriction inside the transaction, to the member a report or notice is about and the photo or message
   * it names; returns what the statement says about it.
   */
  async function restrict(tx: Tx, target: Target, action: Exclude<ReportAction, 'dismiss'>, ground: Ground, facts: string) {
    const report = { reportedId: target.memberId, contentId: target.contentId };
    const base = { memberId: target.memberId, facts, ground, automated: false, reportId: target.reportId ?? null, noticeId: target.noticeId ?? null };
    if (action === 'remove_photo') {
      await reviewPhotoInTx(tx, events, report.contentId, 'rejected');
      return { ...base, restriction: 'photo_removed' as const, content: { kind: 'photo' as const, id: report.contentId } };
    }
    if (action === 'remove_about') {
      const [profile] = await tx.select({ about: profiles.about }).from(profiles).where(eq(profiles.userId, report.reportedId)).for('update');
      if (!profile) throw notFound();
      await tx.update(profiles).set({ about: '' }).where(eq(profiles.userId, report.reportedId));
      return { ...base, restriction: 'text_removed' as const, content: { kind: 'about' as const }, removed: { about: profile.about } };
    }
    if (action === 'hide_message') {
      const [message] = await tx.update(messages).set({ removedAt: clock() })
        .where(and(eq(messages.id, report.contentId), eq(messages.senderId, report.reportedId))).returning({ photoId: messages.chatPhotoId });
      if (!message) throw notFound();
      // A photo sent in the message is hidden with it.
      if (message.photoId) await tx.update(chatPhotos).set({ status: 'rejected', reviewed: true }).where(eq(chatPhotos.id, message.photoId));
      return { ...base, restriction: 'message_hidden' as const, content: { kind: 'message' as const, id: report.contentId } };
    }
    const refunds = await banInTx(tx, clock, report.reportedId, BAN_REASON_OF[ground] ?? 'other', facts);
    return { ...base, restriction: 'banned' as const, content: { kind: 'account' as const }, refunds };
  }

  /** Lifts a decision's restriction (an appeal upheld): the account, photo, text or message comes back. */
  async function lift(tx: Tx, decision: typeof moderationDecisions.$inferSelect) {
    if (decision.restriction === 'banned') await unbanInTx(tx, decision.memberId);
    else if (decision.restriction === 'suspended') await unsuspendInTx(tx, decision.memberId, decision.suspendedUntil);
    else if (decision.restriction === 'photo_removed' && decision.contentId !== null) {
      if (decision.contentKind === 'chat_photo') await tx.update(chatPhotos).set({ status: 'active' }).where(eq(chatPhotos.id, decision.contentId));
      else await reviewPhotoInTx(tx, events, decision.contentId, 'active').catch((e: unknown) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e)));
    } else if (decision.restriction === 'text_removed' && decision.removed?.about !== undefined) {
      // Only while the member has not written a new text meanwhile.
      await tx.update(profiles).set({ about: decision.removed.about }).where(and(eq(profiles.userId, decision.memberId), eq(profiles.about, '')));
    } else if (decision.restriction === 'text_removed' && decision.removed?.name !== undefined) {
      // Only while the member still carries the neutral name the removal gave them (decision 061).
      await tx.update(profiles).set({ name: decision.removed.name }).where(and(eq(profiles.userId, decision.memberId), eq(profiles.name, neutralName(decision.memberId))));
    } else if (decision.restriction === 'message_hidden' && decision.contentId !== null) {
      const [message] = await tx.update(messages).set({ removedAt: null }).where(eq(messages.id, decision.contentId)).returning({ photoId: messages.chatPhotoId });
      if (message?.photoId) await tx.update(chatPhotos).set({ status: 'active' }).where(eq(chatPhotos.id, message.photoId));
    }
    await tx.update(moderationDecisions).set({ status: 'reversed' }).where(eq(moderationDecisions.id, decision.id));
  }

  return {
    /** Open reports within the moderator's sites, oldest first, and how many there are. */
    async reportQueue(actor: StaffActor, page?: number): Promise<QueuePage<QueueReport> & { counts: { open: number; claimed: number } }> {
      const where = and(eq(memberReports.status, 'open'), scope(actor, memberReports.siteId));
      const now = clock();
      const rows = await queuePage(page, (limit, offset) => db.select({ report: memberReports, name: profiles.name }).from(memberReports)
        .leftJoin(profiles, eq(profiles.userId, memberReports.reportedId))
        .where(where).orderBy(asc(memberReports.createdAt), asc(memberReports.id)).limit(limit).offset(offset));
      const open = await db.$count(memberReports, where);
      const claimed = await db.$count(memberReports, and(where, gt(memberReports.claimedUntil, now)));
      return {
        ...rows,
        items: rows.items.map(({ report: r, name }) => ({
          id: r.id, site_id: r.siteId, reporter_id: r.reporterId, reported_id: r.reportedId, reported_name: name, kind: r.kind,
          content_id: r.kind === 'profile' ? null : r.contentId, reason: r.reason, text: r.text, created_at: r.createdAt.toISOString(),
          ...heldNow(r, now),
        })),
        counts: { open, claimed },
      };
    },

    /** Opens a report for its moderator for ten minutes; another moderator's live hold answers 409. */
    async claimReport(actor: StaffActor, id: number, from: From = {}): Promise<{ claimed_until: string }> {
      const report = await loadReport(id);
      requireRole(actor, 'moderator', report.siteId);
      if (report.status !== 'open') throw new AppError(409, 'report_already_decided');
      const now = clock();
      const until = new Date(now.getTime() + CLAIM_MS);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(memberReports).set({ claimedBy: actor.staffId, claimedUntil: until })
          .where(and(eq(memberReports.id, id), eq(memberReports.status, 'open'), claimable(memberReports.claimedBy, memberReports.claimedUntil, actor, now)))
          .returning({ id: memberReports.id });
        if (!row) throw new AppError(409, 'item_claimed');
        await audit.record(tx, {
          actor, role: 'moderator', action: 'report.claim', objectType: 'member_report', objectId: id, memberId: report.reportedId,
          after: { claimed_until: until.toISOString() }, ip: from.ip,
        });
        return { claimed_until: until.toISOString() };
      });
    },

    /**
     * Decides a claimed report: dismissed, or the restriction the action names (which must fit what was reported),
     * its statement of reasons, the report's new status and the audit row, in one transaction.
     */
    async decideReport(actor: StaffActor, id: number, input: DecideReportInput, from: From = {}): Promise<{ status: 'actioned' | 'dismissed'; decision_id: number | null }> {
      const parsed = decideReportInput.safeParse(input);
      if (!parsed.success) throw invalid();
      const { action, ground, facts } = parsed.data;
      const report = await loadReport(id);
      requireRole(actor, 'moderator', report.siteId);
      if (report.status !== 'open') throw new AppError(409, 'report_already_decided');
      if (!ACTIONS_FOR[report.kind].includes(action)) throw new AppError(400, 'action_not_for_report');
      const now = clock();
      const status = action === 'dismiss' ? 'dismissed' as const : 'actioned' as const;
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.update(memberReports).set({ status, decidedBy: actor.staffId, decidedAt: now, claimedUntil: null })
          .where(and(eq(memberReports.id, id), eq(memberReports.status, 'open'), heldBy(memberReports.claimedBy, memberReports.claimedUntil, actor, now)))
          .returning({ id: memberReports.id });
        if (!row) throw new AppError(409, 'report_not_claimed');
        let decisionId: number | null = null;
        let refunds = new Map<number, number>();
        if (action !== 'dismiss') {
          const restricted = await restrict(tx, { memberId: report.reportedId, contentId: report.contentId, reportId: report.id }, action, ground, facts);
          if ('refunds' in restricted) refunds = restricted.refunds;
          const statement: StatementInput = { ...restricted, staffId: actor.staffId };
          decisionId = await statements.issue(tx, statement);
        }
        await audit.record(tx, {
          actor, role: 'moderator', action: 'report.decide', objectType: 'member_report', objectId: id, memberId: report.reportedId,
          before: { status: 'open' }, after: { status, action, ground, decision_id: decisionId }, ip: from.ip,
        });
        return { decisionId, refunds };
      });
      if (outcome.decisionId) events.emit('statement.issued', { decisionId: outcome.decisionId });
      for (const userId of outcome.refunds.keys()) events.emit('credits.changed', { userId });
      return { status, decision_id: outcome.decisionId };
    },

    /** Notices from /complaints not decided yet, within the moderator's sites, oldest first, with counts. */
    async noticeQueue(actor: StaffActor, page?: number): Promise<QueuePage<QueueNotice> & { counts: { open: number } }> {
      const where = and(inArray(notices.status, ['received', 'in_review']), scope(actor, notices.siteId));
      const now = clock();
      const rows = await queuePage(page, (limit, offset) =>
        db.select().from(notices).where(where).orderBy(asc(notices.createdAt), asc(notices.id)).limit(limit).offset(offset));
      return {
        ...rows,
        items: rows.items.map((n) => ({
          reference: n.reference, site_id: n.siteId, kind: n.kind, content: n.contentRef, reason: n.reason, explanation: n.explanation,
          created_at: n.createdAt.toISOString(), ...heldNow(n, now),
        })),
        counts: { open: await db.$count(notices, where) },
      };
    },

    /** Opens a notice for its moderator for ten minutes (its notifier sees it "under review"). */
    async claimNotice(actor: StaffActor, reference: string, from: From = {}): Promise<{ claimed_until: string }> {
      const notice = await loadNotice(reference);
      requireRole(actor, 'moderator', notice.siteId);
      if (notice.status === 'removed' || notice.status === 'no_action') throw new AppError(409, 'notice_already_decided');
      const now = clock();
      const until = new Date(now.getTime() + CLAIM_MS);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(notices).set({ claimedBy: actor.staffId, claimedUntil: until, status: 'in_review', updatedAt: now })
          .where(and(eq(notices.id, notice.id), inArray(notices.status, ['received', 'in_review']), claimable(notices.claimedBy, notices.claimedUntil, actor, now)))
          .returning({ id: notices.id });
        if (!row) throw new AppError(409, 'item_claimed');
        await audit.record(tx, { actor, role: 'moderator', action: 'notice.claim', objectType: 'notice', objectId: notice.id, after: { claimed_until: until.toISOString() }, ip: from.ip });
        return { claimed_until: until.toISOString() };
      });
    },

    /**
     * Decides a claimed notice: no action, or the restriction of the member it names with its statement of reasons
     * (linked to the notice); the notifier reads the outcome on the follow page and by mail. One transaction.
     */
    async decideNotice(actor: StaffActor, reference: string, input: DecideNoticeInput, from: From = {}): Promise<{ status: 'removed' | 'no_action'; decision_id: number | null }> {
      const parsed = decideNoticeInput.safeParse(input);
      if (!parsed.success) throw invalid();
      const { action, ground, facts, decision } = parsed.data;
      const notice = await loadNotice(reference);
      requireRole(actor, 'moderator', notice.siteId);
      if (notice.status === 'removed' || notice.status === 'no_action') throw new AppError(409, 'notice_already_decided');
      const target = action === 'dismiss' ? null : await noticeTarget(notice);
      if (action !== 'dismiss' && (!target || notice.kind === 'other' || !ACTIONS_FOR[notice.kind].includes(action))) throw new AppError(400, 'action_not_for_report');
      const now = clock();
      const status = action === 'dismiss' ? 'no_action' as const : 'removed' as const;
      const outcome = await db.transaction(async (tx) => {
        const done = await decideNoticeInTx(tx, events, now, notice.id, status, decision, heldBy(notices.claimedBy, notices.claimedUntil, actor, now));
        if (!done) throw new AppError(409, 'notice_not_claimed');
        let decisionId: number | null = null;
        let refunds = new Map<number, number>();
        if (action !== 'dismiss' && target) {
          const restricted = await restrict(tx, { ...target, noticeId: notice.id }, action, ground, facts);
          if ('refunds' in restricted) refunds = restricted.refunds;
          decisionId = await statements.issue(tx, { ...restricted, staffId: actor.staffId });
        }
        await audit.record(tx, {
          actor, role: 'moderator', action: 'notice.decide', objectType: 'notice', objectId: notice.id, memberId: target?.memberId ?? null,
          before: { status: notice.status }, after: { status, action, ground, decision_id: decisionId }, ip: from.ip,
        });
        return { decisionId, refunds };
      });
      events.emit('notice.decided', { noticeId: notice.id });
      if (outcome.decisionId) events.emit('statement.issued', { decisionId: outcome.decisionId });
      for (const userId of outcome.refunds.keys()) events.emit('credits.changed', { userId });
      return { status, decision_id: outcome.decisionId };
    },

    /** Open appeals within the moderator's sites, oldest first, with counts; appeals of their own decisions are left out (another decides them). */
    async appealQueue(actor: StaffActor, page?: number): Promise<QueuePage<QueueAppeal> & { counts: { open: number } }> {
      const where = and(
        eq(appeals.status, 'open'), scope(actor, moderationDecisions.siteId),
        or(isNull(moderationDecisions.staffId), ne(moderationDecisions.staffId, actor.staffId)),
      );
      const now = clock();
      const rows = await queuePage(page, (limit, offset) => db.select({ appeal: appeals, decision: moderationDecisions }).from(appeals)
        .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
        .where(where).orderBy(asc(appeals.createdAt), asc(appeals.id)).limit(limit).offset(offset));
      const [{ open }] = await db.select({ open: sql<number>`count(*)`.mapWith(Number) }).from(appeals)
        .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId)).where(where);
      return {
        ...rows,
        items: rows.items.map(({ appeal: a, decision: d }) => ({
          id: a.id, site_id: d.siteId, decision_id: d.id, member_id: a.memberId, restriction: d.restriction, ground: d.ground, text: a.text,
          created_at: a.createdAt.toISOString(), ...heldNow(a, now),
        })),
        counts: { open },
      };
    },

    async claimAppeal(actor: StaffActor, id: number, from: From = {}): Promise<{ claimed_until: string }> {
      const { decision } = await loadAppeal(actor, id);
      const now = clock();
      const until = new Date(now.getTime() + CLAIM_MS);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(appeals).set({ claimedBy: actor.staffId, claimedUntil: until })
          .where(and(eq(appeals.id, id), eq(appeals.status, 'open'), claimable(appeals.claimedBy, appeals.claimedUntil, actor, now)))
          .returning({ id: appeals.id });
        if (!row) throw new AppError(409, 'item_claimed');
        await audit.record(tx, {
          actor, role: 'moderator', action: 'appeal.claim', objectType: 'appeal', objectId: id, memberId: decision.memberId,
          after: { claimed_until: until.toISOString() }, ip: from.ip,
        });
        return { claimed_until: until.toISOString() };
      });
    },

    /** Decides a claimed appeal: reversed lifts the restriction; either way the member is told. */
    async decideAppeal(actor: StaffActor, id: number, input: DecideAppealInput, from: From = {}): Promise<{ outcome: 'reversed' | 'confirmed' }> {
      const parsed = decideAppealInput.safeParse(input);
      if (!parsed.success) throw invalid();
      const { outcome } = parsed.data;
      const { decision } = await loadAppeal(actor, id);
      const now = clock();
      await db.transaction(async (tx) => {
        const [row] = await tx.update(appeals).set({ status: 'decided', outcome, decidedBy: actor.staffId, decidedAt: now, claimedUntil: null })
          .where(and(eq(appeals.id, id), eq(appeals.status, 'open'), heldBy(appeals.claimedBy, appeals.claimedUntil, actor, now)))
          .returning({ id: appeals.id });
        if (!row) throw new AppError(409, 'appeal_not_claimed');
        if (outcome === 'reversed') await lift(tx, decision);
        await events.record(tx, 'appeal.decided', { appealId: id });
        await audit.record(tx, {
          actor, role: 'moderator', action: 'appeal.decide', objectType: 'appeal', objectId: id, memberId: decision.memberId,
          before: { status: 'open', decision: decision.status }, after: { status: 'decided', outcome, decision: outcome === 'reversed' ? 'reversed' : decision.status }, ip: from.ip,
        });
      });
      events.emit('appeal.decided', { appealId: id });
      return { outcome };
    },

    /** Whether a moderator may work on a site's queue (the console's navigation shows the counts only then). */
    mayModerate: (actor: StaffActor, siteId: number | null) => can(actor, 'moderator', siteId),
  };
}

export type ModerationQueue = ReturnType<typeof createModerationQueue>;
