import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { reportSchema, type MyReport, type ReportInput } from '#common/reports.ts';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { conversationMembers, memberReports, messages, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, isAppError, notFound } from '../infra/errors.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import { meetsSite } from '../accounts/contact-rules.ts';
import type { FlagsService } from './flags.service.ts';
import { MANY_REPORTS_REPORTERS, MANY_REPORTS_WINDOW_MS } from './flag-rules.ts';

type ReportRow = typeof memberReports.$inferSelect;

const contentNotFound = () => new AppError(400, 'report_content_not_found', {}, { content_id: 'errors.report_content_not_found' });

function toMine(row: ReportRow, name: string | null): MyReport {
  return {
    id: row.id, profile_id: row.reportedId, profile_name: name, kind: row.kind, content_id: row.kind === 'profile' ? null : row.contentId,
    reason: row.reason, text: row.text, status: row.status, created_at: row.createdAt.toISOString(), decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * Members reporting members from where it happens (a profile, one of its photos, a message of a conversation;
 * decision 057), and their own list of reports. A moderator decides a report in the queue (report-queue.ts).
 */
export function createReportsService(deps: {
  db: Db; clock: Clock;
  blocks: { block(actor: Actor, blockedId: number): Promise<void> };
  /** Many reports against one member put them in the members queue (decision 058). */
  flags: Pick<FlagsService, 'raise'>;
  limits: { reportsPerMember: RateLimiter };
}) {
  const { db, clock, blocks, flags, limits } = deps;

  /** Reports from this many different members within the window flag the reported member. */
  async function flagWhenMany(reportedId: number, reason: string) {
    const since = new Date(clock().getTime() - MANY_REPORTS_WINDOW_MS);
    const [row] = await db.select({ siteId: users.siteId, reporters: sql<number>`(select count(distinct reporter_id) from member_reports r
        where r.reported_id = ${reportedId} and r.created_at > ${since})::int` }).from(users).where(eq(users.id, reportedId));
    if (row && row.reporters >= MANY_REPORTS_REPORTERS) {
      await flags.raise(db, { siteId: row.siteId, userId: reportedId, kind: 'many_reports', evidence: { count: row.reporters, matched: [reason] } });
    }
  }

  /** The reported member exists, is not deleted and is one this member meets (their site or one it shares members with). */
  async function checkTarget(actor: { userId: number; siteId: number }, profileId: number, kind: ReportRow['kind'], contentId: number | undefined) {
    if (profileId === actor.userId) throw new AppError(400, 'cannot_report_self');
    const [target] = await db.select({ id: users.id }).from(users).innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.id, profileId), meetsSite(actor.siteId, users.siteId), ne(users.status, 'deleted')));
    if (!target) throw notFound();
    if (kind === 'profile') return 0;
    if (contentId === undefined) throw contentNotFound();
    if (kind === 'photo') {
      const [photo] = await db.select({ id: photos.id }).from(photos).where(and(eq(photos.id, contentId), eq(photos.userId, profileId)));
      if (!photo) throw contentNotFound();
    } else {
      // Only a message the reported member sent in a conversation of the reporter's own.
      const [message] = await db.select({ id: messages.id }).from(messages)
        .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, messages.conversationId), eq(conversationMembers.userId, actor.userId)))
        .where(and(eq(messages.id, contentId), eq(messages.senderId, profileId)));
      if (!message) throw contentNotFound();
    }
    return contentId;
  }

  return {
    /**
     * Reports a member, a photo of theirs or a message they sent. Reporting the same thing again answers the report
     * already made (`existing`); "also block" blocks the member either way. The limit counts before anything is looked
     * up, so ids cannot be probed.
     */
    async report(actor: Actor, input: ReportInput): Promise<{ report: MyReport; existing: boolean; blocked: boolean }> {
      const member = requireMember(actor);
      const parsed = reportSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = String(issue.path[0] ?? 'kind');
        const key = issue.message.startsWith('errors.') ? issue.message : 'errors.invalid_input';
        throw new AppError(400, key.replace(/^errors\./, ''), {}, { [field]: key });
      }
      const { profile_id: profileId, kind, content_id: contentInput, reason, text, block } = parsed.data;
      const wait = await limits.reportsPerMember.hit(`member:${member.userId}`);
      if (wait > 0) throw new AppError(429, 'too_many_requests', { count: Math.ceil(wait / 60) });
      const contentId = await checkTarget(member, profileId, kind, contentInput);
      const [inserted] = await db.insert(memberReports)
        .values({ siteId: member.siteId, reporterId: member.userId, reportedId: profileId, kind, contentId, reason, text, createdAt: clock() })
        .onConflictDoNothing({ target: [memberReports.reporterId, memberReports.reportedId, memberReports.kind, memberReports.contentId] })
        .returning();
      const row = inserted ?? (await db.select().from(memberReports).where(and(
        eq(memberReports.reporterId, member.userId), eq(memberReports.reportedId, profileId), eq(memberReports.kind, kind), eq(memberReports.contentId, contentId),
      )))[0];
      if (inserted) await flagWhenMany(profileId, reason);
      let blocked = false;
      if (block) {
        try {
          await blocks.block(actor, profileId);
          blocked = true;
        } catch (error) {
          // They blocked the reporter first: the two cannot meet any more, and the report stands.
          if (!isAppError(error) || error.status !== 404) throw error;
        }
      }
      const [name] = await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, profileId));
      return { report: toMine(row, name?.name ?? null), existing: !inserted, blocked };
    },

    /** The member's own reports, newest first, with their status (never the moderator or the decision's details). */
    async mine(actor: Actor): Promise<MyReport[]> {
      const { userId } = requireMember(actor);
      const rows = await db.select({ report: memberReports, name: profiles.name }).from(memberReports)
        .leftJoin(profiles, eq(profiles.userId, memberReports.reportedId))
        .where(eq(memberReports.reporterId, userId))
        .orderBy(desc(memberReports.createdAt), desc(memberReports.id)).limit(200);
      return rows.map((r) => toMine(r.report, r.name));
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
