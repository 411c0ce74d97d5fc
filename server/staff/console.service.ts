import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { auditLogQuerySchema, transparencyQuerySchema, type AuditLogQuery, type TransparencyQuery } from '#common/contracts/staff.ts';
import type { StaffRoleName } from '#common/staff.ts';
import { AppError } from '../infra/errors.ts';
import { can, requireStaffRole, type Actor, type StaffActor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { sites, staffApiTokens, staffMembers, staffSessions } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { AuditLog } from './audit.ts';
import { auditLogCsv, auditLogPage } from './audit-log-reader.ts';
import { periodOf, transparencyCsv, transparencyFigures } from '../reports/transparency.ts';
import { dashboardCsvQuerySchema, dashboardQuerySchema, type DashboardQuery } from '#common/contracts/dashboard.ts';
import { dashboardCsv, dashboardFigures, dashboardPeriod } from '../reports/dashboard.ts';
import type { createStaffPasskeys, RelyingParty } from './staff-passkeys.ts';
import type { createStaffTokens } from './staff-tokens.ts';
import type { FlagPage, FlagsService } from '../moderation/flags.service.ts';
import type { DecideAppealInput, DecideNoticeInput, DecideReportInput, ModerationQueue } from '../moderation/moderation-queue.ts';
import type { DecideTextInput, TextReviews } from '../moderation/text-reviews.ts';
import type { PhotoKind, PhotoQueue } from '../moderation/photo-queue.ts';
import type { createPhotosService } from '../photos/photos.service.ts';
import type { createChatService } from '../chat/chat.service.ts';
import type { MemberSearch, MemberSupport, StaffRequest } from '../support/member-support.ts';
import type { ConversationReading } from '../support/conversation-reading.ts';
import type { BanReason } from '../db/schema.ts';
import type { SuspendInput } from '../moderation/bans.service.ts';
import type { RefundInput } from '../payments/order-refunds.ts';
import type { createRecordsService } from '../payments/records.service.ts';

/** A console screen's staff member, or 403: members, visitors and jobs have no console. */
function consoleStaff(actor: Actor): StaffActor {
  if (actor.kind !== 'staff') throw new AppError(403, 'forbidden');
  return actor;
}

/** Staff with `role` on site `siteId` (null: every site), or 403. */
const consoleRole = requireStaffRole;

export interface ConsoleAccount {
  id: number;
  name: string;
  email: string;
  /** The roles this session acts with. */
  roles: readonly StaffRoleName[];
  language: string;
  /** The sites reached; null for every site. */
  siteIds: readonly number[] | null;
}

export interface ConsoleToken {
  id: number;
  name: string;
  scopes: StaffRoleName[];
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The console's use cases (decision 059): every screen and every action of /console is one of these, so that the
 * authorization test can list them all (`server/staff/console.test.ts` fails on one it has no case for). Each takes
 * the actor and refuses visitors, members, jobs and staff outside its role or sites; each action writes its audit row
 * in its own transaction. Reading does not (the log would fill with itself); opening member data will.
 */
export function createConsoleService(deps: {
  db: Db; clock: Clock; audit: AuditLog; tokens: ReturnType<typeof createStaffTokens>; passkeys: ReturnType<typeof createStaffPasskeys>;
  support: MemberSupport; conversations: ConversationReading; flags: FlagsService;
  bans: {
    ban(actor: Actor, userId: number, reason: BanReason, note: string, from: StaffRequest): Promise<unknown>;
    unban(actor: Actor, userId: number, note: string, from: StaffRequest): Promise<void>;
    suspend(actor: Actor, userId: number, input: SuspendInput, from: StaffRequest): Promise<{ until: string }>;
    endSuspension(actor: Actor, userId: number, note: string, from: StaffRequest): Promise<void>;
  };
  records: Pick<ReturnType<typeof createRecordsService>, 'refundOrder' | 'refundPreview'>;
  moderation: ModerationQueue; texts: TextReviews; photoQueue: PhotoQueue;
  photos: Pick<ReturnType<typeof createPhotosService>, 'moderate'>; chat: Pick<ReturnType<typeof createChatService>, 'moderatePhoto'>;
}) {
  const { db, clock, audit, tokens, passkeys, support, conversations, flags, bans, records, moderation, texts, photoQueue, photos, chat } = deps;
  /**
   * The DSA transparency report's figures (admins): of one site they may see, or of every site they may see when no
   * site is named. Aggregates only, so reading it writes no audit row.
   */
  async function transparencyReport(actor: Actor, query: Partial<TransparencyQuery> = {}) {
    const staff = consoleStaff(actor);
    const { site, ...days } = transparencyQuerySchema.parse(query);
    if (site !== undefined ? !can(staff, 'admin', site) : !staff.roles.includes('admin')) throw new AppError(403, 'forbidden');
    return transparencyFigures(db, periodOf(days, clock()), site !== undefined ? [site] : staff.siteIds, site ?? null);
  }

  /**
   * The reports dashboard (finance and admins): of one site they may see, or of every site they may see when no site
   * is named. Aggregates only, so reading it writes no audit row.
   */
  async function dashboard(actor: Actor, query: Partial<DashboardQuery> = {}) {
    const staff = consoleStaff(actor);
    const { site, bucket, ...days } = dashboardQuerySchema.parse(query);
    if (site !== undefined ? !can(staff, 'finance', site) : !staff.roles.some((role) => role === 'finance' || role === 'admin')) throw new AppError(403, 'forbidden');
    return dashboardFigures(db, dashboardPeriod({ ...days, bucket }, clock()), bucket, site !== undefined ? [site] : staff.siteIds, site ?? null);
  }

  return {
    /** The signed-in staff member's own account: the console's bar and language. */
    async account(actor: Actor): Promise<ConsoleAccount> {
      const staff = consoleStaff(actor);
      const [row] = await db.select().from(staffMembers).where(and(eq(staffMembers.id, staff.staffId), isNull(staffMembers.disabledAt)));
      if (!row) throw new AppError(403, 'forbidden');
      return { id: row.id, name: row.name, email: row.email, roles: staff.roles, language: row.language, siteIds: staff.siteIds };
    },

    /** The staff member's own API tokens that still work, newest first (never their values). */
    async tokens(actor: Actor): Promise<ConsoleToken[]> {
      const staff = consoleStaff(actor);
      const rows = await db.select().from(staffApiTokens)
        .where(and(eq(staffApiTokens.staffId, staff.staffId), isNull(staffApiTokens.revokedAt))).orderBy(desc(staffApiTokens.id));
      return rows.map((r) => ({
        id: r.id, name: r.name, scopes: r.scopes, createdAt: r.createdAt.toISOString(), lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      }));
    },

    /** A new API token of the staff member's own, with some of their roles as scopes; its value is in this answer only. */
    async createToken(actor: Actor, input: { name: string; scopes: StaffRoleName[] }, from: { ip?: string | null } = {}) {
      return tokens.createToken(consoleStaff(actor), input, from);
    },

    /** Revokes one of the staff member's own tokens (an admin of every site any). */
    async revokeToken(actor: Actor, tokenId: number, from: { ip?: string | null } = {}): Promise<void> {
      await tokens.revokeToken(consoleStaff(actor), tokenId, from);
    },

    /** The staff member's own passkeys (decision 062). */
    passkeys: async (actor: Actor) => passkeys.passkeys(consoleStaff(actor)),
    /** The browser's options for a new passkey on this domain, with the signed state its answer comes back with. */
    passkeyOptions: async (actor: Actor, rp: RelyingParty) => passkeys.passkeyOptions(consoleStaff(actor), rp),
    /** Keeps a new passkey of the staff member's own. */
    addPasskey: async (actor: Actor, input: { state: string; name: string; credential: unknown }, rp: RelyingParty, from: { ip?: string | null } = {}) =>
      passkeys.addPasskey(consoleStaff(actor), input, rp, from),
    /** Removes one of the staff member's own passkeys. */
    removePasskey: async (actor: Actor, passkeyId: number, from: { ip?: string | null } = {}) => passkeys.removePasskey(consoleStaff(actor), passkeyId, from),

    /** Signs the staff member out everywhere: every console session of theirs ends, this one too. */
    async signOutEverywhere(actor: Actor, from: { ip?: string | null } = {}): Promise<{ ended: number }> {
      const staff = consoleStaff(actor);
      return db.transaction(async (tx) => {
        const ended = await tx.delete(staffSessions).where(eq(staffSessions.staffId, staff.staffId)).returning({ id: staffSessions.id });
        await audit.record(tx, {
          actor: staff, role: staff.roles[0], action: 'staff.sign_out_everywhere', objectType: 'staff_member', objectId: staff.staffId,
          after: { sessions_ended: ended.length }, ip: from.ip,
        });
        return { ended: ended.length };
      });
    },

    /** The audit log, filtered and a page at a time, for admins of every site (the log spans every site). */
    async auditLog(actor: Actor, query: Partial<AuditLogQuery> = {}) {
      consoleRole(actor, 'admin', null);
      return auditLogPage(db, auditLogQuerySchema.parse(query));
    },

    /** The same rows as CSV, every page, for admins of every site. */
    async auditLogCsv(actor: Actor, query: Partial<AuditLogQuery> = {}): Promise<{ filename: string; csv: string }> {
      consoleRole(actor, 'admin', null);
      const csv = await auditLogCsv(db, auditLogQuerySchema.parse(query));
      return { filename: `audit-log-${clock().toISOString().slice(0, 10)}.csv`, csv };
    },

    /** The sites the staff member reaches (every site for staff of every site), by name: the console's site choices. */
    async sites(actor: Actor): Promise<{ id: number; name: string; domain: string }[]> {
      const staff = consoleStaff(actor);
      if (staff.siteIds !== null && !staff.siteIds.length) return [];
      return db.select({ id: sites.id, name: sites.name, domain: sites.domain }).from(sites)
        .where(staff.siteIds === null ? undefined : inArray(sites.id, [...staff.siteIds])).orderBy(asc(sites.name), asc(sites.id));
    },

    transparencyReport,
    dashboard,
    /** One table of the reports dashboard as CSV. */
    async dashboardCsv(actor: Actor, query: Partial<DashboardQuery> & { table?: string } = {}): Promise<{ filename: string; csv: string }> {
      const { table, ...rest } = dashboardCsvQuerySchema.parse(query);
      const report = await dashboard(actor, rest);
      return { filename: `${table}-${report.site_id ?? 'all'}-${report.from}-${report.to}-${report.bucket}.csv`, csv: dashboardCsv(report, table) };
    },
    /** The same figures as CSV. */
    async transparencyReportCsv(actor: Actor, query: Partial<TransparencyQuery> = {}): Promise<{ filename: string; csv: string }> {
      const report = await transparencyReport(actor, query);
      return { filename: `transparency-${report.site_id ?? 'all'}-${report.from}-${report.to}.csv`, csv: transparencyCsv(report) };
    },

    // Member support (support staff; every search and opening is audited by the use case). Async, so that a refusal
    // is a rejected promise like every other use case's.
    findMembers: async (actor: Actor, input: MemberSearch, from: StaffRequest = { ip: null }) => support.find(consoleStaff(actor), input, from),
    member: async (actor: Actor, memberId: number, from: StaffRequest = { ip: null }) => support.overview(consoleStaff(actor), memberId, from),
    adjustCredits: async (actor: Actor, memberId: number, input: Parameters<MemberSupport['adjustCredits']>[2], from: StaffRequest = { ip: null }) =>
      support.adjustCredits(consoleStaff(actor), memberId, input, from),
    /** A member's conversation that a report concerns, read by support (audited); any other is refused. */
    readConversation: async (actor: Actor, memberId: number, conversationId: number, from: StaffRequest = { ip: null }) =>
      conversations.read(consoleStaff(actor), memberId, conversationId, from),
    endSessions: async (actor: Actor, memberId: number, from: StaffRequest = { ip: null }) => support.endSessions(consoleStaff(actor), memberId, from),
    resendActivation: async (actor: Actor, memberId: number, from: StaffRequest = { ip: null }) => support.resendActivation(consoleStaff(actor), memberId, from),
    sendPasswordReset: async (actor: Actor, memberId: number, from: StaffRequest = { ip: null }) => support.sendPasswordReset(consoleStaff(actor), memberId, from),

    setFictional: async (actor: Actor, memberId: number, input: { fictional: boolean; reason: string }, from: StaffRequest = { ip: null }) =>
      support.setFictional(consoleStaff(actor), memberId, input, from),

    // Bans (moderators) and refunds (finance) from a member's page; each use case checks its role and the site.
    banMember: async (actor: Actor, memberId: number, input: { reason: BanReason; note: string }, from: StaffRequest = { ip: null }) => {
      await bans.ban(consoleStaff(actor), memberId, input.reason, input.note, from);
    },
    unbanMember: async (actor: Actor, memberId: number, note: string, from: StaffRequest = { ip: null }) => bans.unban(consoleStaff(actor), memberId, note, from),
    suspendMember: async (actor: Actor, memberId: number, input: SuspendInput, from: StaffRequest = { ip: null }) => bans.suspend(consoleStaff(actor), memberId, input, from),
    endSuspension: async (actor: Actor, memberId: number, note: string, from: StaffRequest = { ip: null }) => bans.endSuspension(consoleStaff(actor), memberId, note, from),
    /** What a refund of the order would do (amount null: all that is left), for the confirmation; refused as the refund would be. */
    refundPreview: async (actor: Actor, orderId: string, amountCents: number | null) => records.refundPreview(consoleStaff(actor), orderId, amountCents),
    /** Refunds the order, whole or a part; a resent form (the same key) answers the first refund. */
    refundOrder: async (actor: Actor, orderId: string, input: RefundInput, from: StaffRequest = { ip: null }) => {
      const done = await records.refundOrder(consoleStaff(actor), orderId, input, from);
      return { amountCents: done.amount, currency: done.order.currency, creditsTaken: done.credits_taken, whole: done.order.refunded_at !== null };
    },

    // The members queue's automatic flags (moderators).
    flags: async (actor: Actor, page: FlagPage = {}) => flags.queue(consoleStaff(actor), page),
    flag: async (actor: Actor, flagId: number, from: StaffRequest = { ip: null }) => flags.evidence(consoleStaff(actor), flagId, from.ip),
    resolveFlag: async (actor: Actor, flagId: number, from: StaffRequest = { ip: null }) => flags.resolve(consoleStaff(actor), flagId, from.ip),

    // The moderation queues (moderators, within their sites; decision 057): reports, DSA notices and appeals are
    // claimed for ten minutes before they are decided; photos are approved or rejected in one step. Each queue is read
    // a page of 50 at a time, oldest first.
    reportQueue: async (actor: Actor, page?: number) => moderation.reportQueue(consoleStaff(actor), page),
    claimReport: async (actor: Actor, id: number, from: StaffRequest = { ip: null }) => moderation.claimReport(consoleStaff(actor), id, from),
    decideReport: async (actor: Actor, id: number, input: DecideReportInput, from: StaffRequest = { ip: null }) =>
      moderation.decideReport(consoleStaff(actor), id, input, from),
    noticeQueue: async (actor: Actor, page?: number) => moderation.noticeQueue(consoleStaff(actor), page),
    claimNotice: async (actor: Actor, reference: string, from: StaffRequest = { ip: null }) => moderation.claimNotice(consoleStaff(actor), reference, from),
    decideNotice: async (actor: Actor, reference: string, input: DecideNoticeInput, from: StaffRequest = { ip: null }) =>
      moderation.decideNotice(consoleStaff(actor), reference, input, from),
    appealQueue: async (actor: Actor, page?: number) => moderation.appealQueue(consoleStaff(actor), page),
    claimAppeal: async (actor: Actor, id: number, from: StaffRequest = { ip: null }) => moderation.claimAppeal(consoleStaff(actor), id, from),
    decideAppeal: async (actor: Actor, id: number, input: DecideAppealInput, from: StaffRequest = { ip: null }) =>
      moderation.decideAppeal(consoleStaff(actor), id, input, from),
    // New and changed names and about-me texts (decision 061).
    textQueue: async (actor: Actor, page?: number) => texts.textQueue(consoleStaff(actor), page),
    claimText: async (actor: Actor, id: number, from: StaffRequest = { ip: null }) => texts.claimText(consoleStaff(actor), id, from),
    decideText: async (actor: Actor, id: number, input: DecideTextInput, from: StaffRequest = { ip: null }) => texts.decideText(consoleStaff(actor), id, input, from),
    /** How many items wait in each queue, for the console's navigation. */
    queueCounts: async (actor: Actor): Promise<{ photos: number; reports: number; notices: number; appeals: number; texts: number }> => {
      const staff = consoleStaff(actor);
      const [photoItems, reports, notices, appeals, waiting] = await Promise.all([
        photoQueue.photoQueue(staff), moderation.reportQueue(staff), moderation.noticeQueue(staff), moderation.appealQueue(staff), texts.textQueue(staff),
      ]);
      return {
        photos: photoItems.counts.open, reports: reports.counts.open, notices: notices.counts.open, appeals: appeals.counts.open, texts: waiting.counts.open,
      };
    },
    /** Profile and chat photos no moderator has looked at yet, both kinds oldest first, a page at a time. */
    photoQueue: async (actor: Actor, page?: number) => photoQueue.photoQueue(consoleStaff(actor), page),
    /** Opens a photo for ten minutes: no other moderator decides it meanwhile. */
    claimPhoto: async (actor: Actor, input: { kind: PhotoKind; id: number }, from: StaffRequest = { ip: null }) =>
      photoQueue.claimPhoto(consoleStaff(actor), input, from),
    moderatePhoto: async (actor: Actor, input: { kind: 'profile' | 'chat'; id: number; decision: 'approve' | 'reject' }, from: StaffRequest = { ip: null }) => {
      const staff = consoleStaff(actor);
      return input.kind === 'chat' ? chat.moderatePhoto(staff, input.id, input.decision, from) : photos.moderate(staff, input.id, input.decision, from);
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
