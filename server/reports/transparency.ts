import { and, count, eq, gte, inArray, isNotNull, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { TransparencyQuery, TransparencyReport } from '#common/contracts/staff.ts';
import { csvFile } from '#common/csv.ts';
import { NOTICE_REASONS } from '#common/notices.ts';
import { GROUND_KEYS, REPORT_REASONS, RESTRICTIONS } from '#common/reports.ts';
import type { Db } from '../db/client.ts';
import { appeals, memberReports, moderationDecisions, notices } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';

const DAY_MS = 86_400_000;
/** The longest period one report covers. */
const MAX_DAYS = 5 * 366;

/** The period's first instant and the instant after its last day (days are UTC and inclusive). */
export interface Period { from: string; to: string; start: Date; end: Date }

/** The query's days, by default from the first of January of `today`'s year until `today`; 400 when `to` is before `from` or the span is too long. */
export function periodOf(query: Pick<TransparencyQuery, 'from' | 'to'>, today: Date): Period {
  const to = query.to ?? today.toISOString().slice(0, 10);
  const from = query.from ?? `${to.slice(0, 4)}-01-01`;
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS);
  if (end <= start || end.getTime() - start.getTime() > MAX_DAYS * DAY_MS) throw new AppError(400, 'invalid_period');
  return { from, to, start, end };
}

const within = (column: AnyColumn, period: Period) => and(gte(column, period.start), lt(column, period.end));

/** Only the rows of `sites` (null: every site). */
const ofSites = (column: AnyColumn, sites: readonly number[] | null): SQL | undefined =>
  sites === null ? undefined : sites.length ? inArray(column, [...sites]) : sql`false`;

/** The median of the hours from `received` to `decided`, or null when no row was decided. */
const medianHours = (received: AnyColumn, decided: AnyColumn) =>
  sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from (${decided} - ${received}))::float8 / 3600)`.mapWith((v) => (v === null ? null : Number(v)));

/** Every key of `keys` with its count in `rows` (zero when absent), in the catalogue's order. */
function tally<K extends string>(keys: readonly K[], rows: { key: string; count: number }[]): { key: K; count: number }[] {
  const found = new Map(rows.map((r) => [r.key, r.count]));
  return keys.map((key) => ({ key, count: found.get(key) ?? 0 }));
}

/** Hours rounded to a tenth, for a figure people read. */
const tenth = (hours: number | null) => (hours === null ? null : Math.round(hours * 10) / 10);

/**
 * The figures of a DSA transparency report (Art. 15 and 24) for `sites` over `period`: what was received in the period
 * (notices, member reports, appeals), what was decided in it (decisions by ground, restriction and source, how many
 * automatically, how many were reversed since), and the median time from receipt to decision of what was decided in
 * it. Straight from the tables the queues write, so that the report and the queues never disagree.
 */
export async function transparencyFigures(db: Db, period: Period, sites: readonly number[] | null, siteId: number | null): Promise<TransparencyReport> {
  const noticeSites = ofSites(notices.siteId, sites);
  const reportSites = ofSites(memberReports.siteId, sites);
  const decisionSites = ofSites(moderationDecisions.siteId, sites);

  const [noticeReasons, noticesDecided, reportReasons, reportsDecided, grounds, restrictions, sources, reversed, appealsReceived, appealsDecided] = await Promise.all([
    db.select({ key: notices.reason, count: count() }).from(notices).where(and(within(notices.createdAt, period), noticeSites)).groupBy(notices.reason),
    db.select({ key: notices.status, count: count() }).from(notices)
      .where(and(within(notices.decidedAt, period), inArray(notices.status, ['removed', 'no_action']), noticeSites)).groupBy(notices.status),
    db.select({ key: memberReports.reason, count: count() }).from(memberReports).where(and(within(memberReports.createdAt, period), reportSites)).groupBy(memberReports.reason),
    db.select({ key: memberReports.status, count: count() }).from(memberReports)
      .where(and(within(memberReports.decidedAt, period), inArray(memberReports.status, ['actioned', 'dismissed']), reportSites)).groupBy(memberReports.status),
    db.select({ key: moderationDecisions.ground, count: count(), automated: count(sql`case when ${moderationDecisions.automated} then 1 end`) })
      .from(moderationDecisions).where(and(within(moderationDecisions.createdAt, period), decisionSites)).groupBy(moderationDecisions.ground),
    db.select({ key: moderationDecisions.restriction, count: count() }).from(moderationDecisions)
      .where(and(within(moderationDecisions.createdAt, period), decisionSites)).groupBy(moderationDecisions.restriction),
    db.select({
      key: sql<string>`case when ${moderationDecisions.noticeId} is not null then 'notice' when ${moderationDecisions.reportId} is not null then 'report' else 'own_initiative' end`,
      count: count(),
    }).from(moderationDecisions).where(and(within(moderationDecisions.createdAt, period), decisionSites)).groupBy(sql`1`),
    db.select({ count: count() }).from(moderationDecisions)
      .where(and(within(moderationDecisions.createdAt, period), eq(moderationDecisions.status, 'reversed'), decisionSites)),
    db.select({ count: count() }).from(appeals).innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
      .where(and(within(appeals.createdAt, period), decisionSites)),
    db.select({ key: appeals.outcome, count: count() }).from(appeals).innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
      .where(and(within(appeals.decidedAt, period), isNotNull(appeals.outcome), decisionSites)).groupBy(appeals.outcome),
  ]);
  // The medians over every item decided in the period, whatever its outcome.
  const [[reportMedian], [appealMedian], [noticeMedian]] = await Promise.all([
    db.select({ median: medianHours(memberReports.createdAt, memberReports.decidedAt) }).from(memberReports)
      .where(and(within(memberReports.decidedAt, period), inArray(memberReports.status, ['actioned', 'dismissed']), reportSites)),
    db.select({ median: medianHours(appeals.createdAt, appeals.decidedAt) }).from(appeals).innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
      .where(and(within(appeals.decidedAt, period), isNotNull(appeals.outcome), decisionSites)),
    db.select({ median: medianHours(notices.createdAt, notices.decidedAt) }).from(notices)
      .where(and(within(notices.decidedAt, period), inArray(notices.status, ['removed', 'no_action']), noticeSites)),
  ]);

  const counted = (rows: { key: string | null; count: number }[], key: string) => rows.find((r) => r.key === key)?.count ?? 0;
  const sum = (rows: { count: number }[]) => rows.reduce((total, r) => total + r.count, 0);
  const groundRows = new Map(grounds.map((g) => [g.key, g]));
  // Grounds no longer in the catalogue still count in the total, under the catalogue's general clause.
  const unknown = grounds.filter((g) => !(GROUND_KEYS as readonly string[]).includes(g.key));
  return {
    from: period.from, to: period.to, site_id: siteId,
    notices: {
      received: sum(noticeReasons), by_reason: tally(NOTICE_REASONS, noticeReasons),
      decided: sum(noticesDecided), removed: counted(noticesDecided, 'removed'), no_action: counted(noticesDecided, 'no_action'),
      median_hours_to_decision: tenth(noticeMedian?.median ?? null),
    },
    member_reports: {
      received: sum(reportReasons), by_reason: tally(REPORT_REASONS, reportReasons),
      actioned: counted(reportsDecided, 'actioned'), dismissed: counted(reportsDecided, 'dismissed'),
      median_hours_to_decision: tenth(reportMedian?.median ?? null),
    },
    decisions: {
      total: sum(grounds), automated: grounds.reduce((total, g) => total + g.automated, 0), reversed: reversed[0]?.count ?? 0,
      by_ground: GROUND_KEYS.map((key) => {
        const extra = key === 'terms_general' ? unknown : [];
        const row = groundRows.get(key);
        return { key, count: (row?.count ?? 0) + sum(extra), automated: (row?.automated ?? 0) + extra.reduce((t, g) => t + g.automated, 0) };
      }),
      by_restriction: tally(RESTRICTIONS, restrictions), by_source: tally(['notice', 'report', 'own_initiative'] as const, sources),
    },
    appeals: {
      received: appealsReceived[0]?.count ?? 0, decided: sum(appealsDecided),
      reversed: counted(appealsDecided, 'reversed'), confirmed: counted(appealsDecided, 'confirmed'),
      median_hours_to_decision: tenth(appealMedian?.median ?? null),
    },
  };
}

/**
 * The report as CSV, one figure per row (section, item, count), in the report's order: a section's figures under its
 * name, its tallies under `<section>_<tally>` (and their automated counts under `automated_<section>_<tally>`).
 */
export function transparencyCsv(report: TransparencyReport): string {
  const rows: unknown[][] = [['section', 'item', 'count'], ['period', `${report.from}..${report.to}`, null]];
  for (const section of ['notices', 'member_reports', 'decisions', 'appeals'] as const) {
    for (const [name, value] of Object.entries(report[section])) {
      if (!Array.isArray(value)) {
        rows.push([section, name, value]);
        continue;
      }
      const tally: { key: string; count: number; automated?: number }[] = value;
      for (const row of tally) rows.push([`${section}_${name}`, row.key, row.count]);
      if (tally.some((row) => row.automated !== undefined)) for (const row of tally) rows.push([`automated_${section}_${name}`, row.key, row.automated]);
    }
  }
  return csvFile(rows);
}
