import { and, desc, eq, isNull } from 'drizzle-orm';
import { auditLogQuerySchema, type AuditLogQuery } from '#common/contracts/staff.ts';
import type { StaffRoleName } from '#common/staff.ts';
import { AppError } from '../infra/errors.ts';
import { can, type Actor, type StaffActor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { staffApiTokens, staffMembers, staffSessions } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { AuditLog } from './audit.ts';
import { auditLogCsv, auditLogPage } from './audit-log-reader.ts';
import type { createStaffTokens } from './staff-tokens.ts';
import type { FlagsService } from '../moderation/flags.service.ts';
import type { DecideAppealInput, DecideNoticeInput, DecideReportInput, ModerationQueue } from '../moderation/moderation-queue.ts';
import type { createPhotosService } from '../photos/photos.service.ts';
import type { createChatService } from '../chat/chat.service.ts';
import type { MemberSearch, MemberSupport, StaffRequest } from '../support/member-support.ts';
import type { ConversationReading } from '../support/conversation-reading.ts';
import type { BanReason } from '../db/schema.ts';
import type { SuspendInput } from '../moderation/bans.service.ts';

/** A console screen's staff member, or 403: members, visitors and jobs have no console. */
function consoleStaff(actor: Actor): StaffActor {
  if (actor.kind !== 'staff') throw new AppError(403, 'forbidden');
  return actor;
}

/** Staff with `role` on site `siteId` (null: every site), or 403. */
function consoleRole(actor: Actor, role: StaffRoleName, siteId: number | null): StaffActor {
  const staff = consoleStaff(actor);
  if (!can(staff, role, siteId)) throw new AppError(403, 'forbidden');
  return staff;
}

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
  db: Db; clock: Clock; audit: AuditLog; tokens: ReturnType<typeof createStaffTokens>; support: MemberSupport; conversations: ConversationReading; flags: FlagsService;
  bans: {
    ban(actor: Actor, userId: number, reason: BanReason, note: string, from: StaffRequest): Promise<unknown>;
    unban(actor: Actor, userId: number, note: string, from: StaffRequest): Promise<void>;
    suspend(actor: Actor, userId: number, input: SuspendInput, from: StaffRequest): Promise<{ until: string }>;
    endSuspension(actor: Actor, userId: number, note: string, from: StaffRequest): Promise<void>;
  };
  records: { refundOrder(actor: Actor, orderId: string, reason: string, from: StaffRequest): Promise<unknown> };
  moderation: ModerationQueue; photos: Pick<ReturnType<typeof createPhotosService>, 'pending' | 'moderate'>; chat: Pick<ReturnType<typeof createChatService>, 'pendingPhotos' | 'moderatePhoto'>;
}) {
  const { db, clock, audit, tokens, support, conversations, flags, bans, records, moderation, photos, chat } = deps;
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
    refundOrder: async (actor: Actor, orderId: string, reason: string, from: StaffRequest = { ip: null }) => {
      await records.refundOrder(consoleStaff(actor), orderId, reason, from);
    },

    // The members queue's automatic flags (moderators).
    flags: async (actor: Actor, page: { after?: number } = {}) => flags.queue(consoleStaff(actor), page),
    flag: async (actor: Actor, flagId: number, from: StaffRequest = { ip: null }) => flags.evidence(consoleStaff(actor), flagId, from.ip),
    resolveFlag: async (actor: Actor, flagId: number, from: StaffRequest = { ip: null }) => flags.resolve(consoleStaff(actor), flagId, from.ip),

    // The moderation queues (moderators, within their sites; decision 057): reports, DSA notices and appeals are
    // claimed for ten minutes before they are decided; photos are approved or rejected in one step.
    reportQueue: async (actor: Actor) => moderation.reportQueue(consoleStaff(actor)),
    claimReport: async (actor: Actor, id: number, from: StaffRequest = { ip: null }) => moderation.claimReport(consoleStaff(actor), id, from),
    decideReport: async (actor: Actor, id: number, input: DecideReportInput, from: StaffRequest = { ip: null }) =>
      moderation.decideReport(consoleStaff(actor), id, input, from),
    noticeQueue: async (actor: Actor) => moderation.noticeQueue(consoleStaff(actor)),
    claimNotice: async (actor: Actor, reference: string, from: StaffRequest = { ip: null }) => moderation.claimNotice(consoleStaff(actor), reference, from),
    decideNotice: async (actor: Actor, reference: string, input: DecideNoticeInput, from: StaffRequest = { ip: null }) =>
      moderation.decideNotice(consoleStaff(actor), reference, input, from),
    appealQueue: async (actor: Actor) => moderation.appealQueue(consoleStaff(actor)),
    claimAppeal: async (actor: Actor, id: number, from: StaffRequest = { ip: null }) => moderation.claimAppeal(consoleStaff(actor), id, from),
    decideAppeal: async (actor: Actor, id: number, input: DecideAppealInput, from: StaffRequest = { ip: null }) =>
      moderation.decideAppeal(consoleStaff(actor), id, input, from),
    /** How many items wait in each queue, for the console's navigation. */
    queueCounts: async (actor: Actor): Promise<{ photos: number; reports: number; notices: number; appeals: number }> => {
      const staff = consoleStaff(actor);
      const [profile, chatPhotos, reports, notices, appeals] = await Promise.all([
        photos.pending(staff), chat.pendingPhotos(staff), moderation.reportQueue(staff), moderation.noticeQueue(staff), moderation.appealQueue(staff),
      ]);
      return { photos: profile.length + chatPhotos.length, reports: reports.counts.open, notices: notices.counts.open, appeals: appeals.counts.open };
    },
    /** Profile and chat photos no moderator has looked at yet, oldest first. */
    photoQueue: async (actor: Actor) => {
      const staff = consoleStaff(actor);
      return { photos: await photos.pending(staff), chat_photos: await chat.pendingPhotos(staff) };
    },
    moderatePhoto: async (actor: Actor, input: { kind: 'profile' | 'chat'; id: number; decision: 'approve' | 'reject' }, from: StaffRequest = { ip: null }) => {
      const staff = consoleStaff(actor);
      return input.kind === 'chat' ? chat.moderatePhoto(staff, input.id, input.decision, from) : photos.moderate(staff, input.id, input.decision, from);
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
