import { sql, sum, type SQL } from 'drizzle-orm';
import type { Dashboard, DashboardBucket, DashboardQuery } from '#common/contracts/dashboard.ts';
import { DASHBOARD_TABLES } from '#common/contracts/dashboard.ts';
import { csvFile } from '#common/csv.ts';
import type { PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type Db } from '../db/client.ts';
import { creditPackages, landerVisits, reportActiveDays, reportDays, reportLanderDays, reportMoneyDays, sites } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { Period } from './transparency.ts';
import {
  activeByPreviousDay, addDays, DAY_COUNTS, dayCountColumns, LANDER_COLUMNS, liveDayCounts, liveLanderCounts, liveMemberDays, liveMoney, MONEY_COLUMNS, ofSites,
  summarisedThrough, type DayCount, type Days,
} from './report-summaries.ts';

const DAY_MS = 86_400_000;
/** The longest period per bucket: a chart of more than about 400 points is unreadable. */
const MAX_DAYS: Record<DashboardBucket, number> = { day: 400, week: 5 * 366, month: 5 * 366 };

/** The query's days, by default the 30 days until `today`; 400 when `to` is before `from` or the span is too long for the bucket. */
export function dashboardPeriod(query: Pick<DashboardQuery, 'from' | 'to' | 'bucket'>, today: Date): Period {
  const to = query.to ?? today.toISOString().slice(0, 10);
  const from = query.from ?? new Date(new Date(`${to}T00:00:00Z`).getTime() - 29 * DAY_MS).toISOString().slice(0, 10);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS);
  if (end <= start || end.getTime() - start.getTime() > MAX_DAYS[query.bucket] * DAY_MS) throw new AppError(400, 'invalid_period');
  return { from, to, start, end };
}

/** The first day (UTC, ISO) of the bucket holding `day`: weeks start on Monday, as Postgres's date_trunc has them. */
function bucketOf(day: Date, bucket: DashboardBucket): Date {
  if (bucket === 'day') return day;
  if (bucket === 'month') return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

/** Every bucket of the period, by its first day (the first may start before the period). */
export function bucketsOf(period: Period, bucket: DashboardBucket): string[] {
  const keys = new Set<string>();
  for (let t = period.start.getTime(); t < period.end.getTime(); t += DAY_MS) keys.add(bucketOf(new Date(t), bucket).toISOString().slice(0, 10));
  return [...keys];
}

/** The bucket of a date column, as its first day (`bucket` is one of the three names, never input text). */
const bucketKey = (day: SQL, bucket: DashboardBucket) => sql`to_char(date_trunc('${sql.raw(bucket)}', ${day}::timestamp), 'YYYY-MM-DD')`;

/** What the dashboard reads from the summaries and what it counts live: the days after the summaries' latest. */
function split(period: Period, through: string | null): { summarised: Days | null; live: Days | null } {
  const summarised = through !== null && through >= period.from ? { from: period.from, to: through < period.to ? through : period.to } : null;
  const live = summarised === null ? { from: period.from, to: period.to } : summarised.to < period.to ? { from: addDays(summarised.to, 1), to: period.to } : null;
  return { summarised, live };
}

/** The rows of summary `table` for `days` and `siteIds`, and of `live` for the other days, as one source of rows. */
function rowsFrom(columns: SQL, table: PgTable, summarised: Days | null, siteIds: readonly number[] | null, live: Days | null, liveRows: (days: Days) => SQL): SQL {
  return sql.join([
    ...summarised ? [sql`select ${columns} from ${table} where day between ${summarised.from}::date and ${summarised.to}::date and ${ofSites(sql`site_id`, siteIds)}`] : [],
    ...live ? [sql`select ${columns} from (${liveRows(live)}) l`] : [],
  ], sql` union all `);
}

interface MoneyRow { t: string; key: string; currency: string; orders: number; cents: string | number }

/**
 * The reports dashboard's figures for `siteIds` (null: every site) over `period` in `bucket`s: closed days from the
 * summaries the hourly job builds (decision 081), the days after the latest summarised one (today) live from the tables
 * the member side writes, with the same SQL. `summaries: false` counts every day live. Money stays per currency.
 * Visits to landers come from their per-day counts.
 */
export async function dashboardFigures(
  db: Db, period: Period, bucket: DashboardBucket, siteIds: readonly number[] | null, siteId: number | null, options: { summaries?: boolean } = {},
): Promise<Dashboard> {
  const { summarised, live } = split(period, options.summaries === false ? null : await summarisedThrough(db));
  const counts = rowsFrom(sql`day, ${dayCountColumns}`, reportDays, summarised, siteIds, live, (days) => liveDayCounts(days, siteIds));
  const money = rowsFrom(MONEY_COLUMNS, reportMoneyDays, summarised, siteIds, live, (days) => liveMoney(days, siteIds));
  const landerCounts = rowsFrom(LANDER_COLUMNS, reportLanderDays, summarised, siteIds, live, (days) => liveLanderCounts(days, siteIds));
  const active = rowsFrom(sql`day, previous_day, members`, reportActiveDays, summarised, siteIds, live, (days) => activeByPreviousDay(liveMemberDays(days, siteIds), days.from));
  const [visits, countRows, activeRows, moneyRows, landerRows] = await Promise.all([
    // Lander visits are counted per day: a day of the period is a whole row, so days bound it, not instants.
    db.select({ bucket: sql<string>`to_char(date_trunc('${sql.raw(bucket)}', ${landerVisits.day}::timestamp), 'YYYY-MM-DD')`, count: sql<number>`coalesce(${sum(landerVisits.visits)}, 0)`.mapWith(Number) })
      .from(landerVisits).where(sql`${landerVisits.day} between ${period.from}::date and ${period.to}::date and ${ofSites(sql`${landerVisits.siteId}`, siteIds)}`)
      .groupBy(sql`1`),
    db.execute(sql`select ${bucketKey(sql`day`, bucket)} as bucket, ${sql.join(DAY_COUNTS.map((c) => sql`sum(${sql.identifier(c)})::int as ${sql.identifier(c)}`), sql`, `)}
      from (${counts}) c group by 1`),
    // A member active on several days of a span is counted on the first: the day whose previous active day lies before the span.
    db.execute(sql`with a as (${active})
      select ${bucketKey(sql`day`, bucket)} as bucket,
        coalesce(sum(members) filter (where previous_day is null or previous_day < greatest(date_trunc('${sql.raw(bucket)}', day::timestamp)::date, ${period.from}::date)), 0)::int as count
      from a group by 1
      union all
      select 'total', coalesce(sum(members) filter (where previous_day is null or previous_day < ${period.from}::date), 0)::int from a`),
    db.execute(sql`with m as (${money})
      select 'revenue' as t, ${bucketKey(sql`day`, bucket)} as key, currency, sum(orders)::int as orders, sum(cents)::bigint as cents from m where kind = 'order' group by 2, 3
      union all select 'by_method', paymentmethod, currency, sum(orders)::int, sum(cents)::bigint from m where kind = 'order' group by 2, 3
      union all select 'by_country', country, currency, sum(orders)::int, sum(cents)::bigint from m where kind = 'order' group by 2, 3
      union all select 'by_package', (select p.credits from ${creditPackages} p where p.id = m.package_id)::text, m.currency, sum(m.orders)::int, sum(m.cents)::bigint
        from m where kind = 'order' group by 2, 3
      union all select 'by_site', s.name, m.currency, sum(m.orders)::int, sum(m.cents)::bigint from m join ${sites} s on s.id = m.site_id where m.kind = 'order' group by 2, 3
      union all select 'refunds', ${bucketKey(sql`day`, bucket)}, currency, sum(orders)::int, sum(cents)::bigint from m where kind = 'refund' group by 2, 3
      union all select 'chargebacks', ${bucketKey(sql`day`, bucket)}, currency, sum(orders)::int, sum(cents)::bigint from m where kind = 'chargeback' group by 2, 3
      order by 1, 2, 3`),
    db.execute(sql`select lander, sum(visits)::int as visits, sum(signups)::int as signups, sum(activations)::int as activations, sum(first_purchases)::int as first_purchases
      from (
        select lander, visits, 0 as signups, 0 as activations, 0 as first_purchases from ${landerVisits}
          where day between ${period.from}::date and ${period.to}::date and ${ofSites(sql`site_id`, siteIds)}
        union all
        select lander, 0, signups, activations, first_purchases from (${landerCounts}) c
      ) l group by 1 order by 1`),
  ]);

  const countsAt = new Map(rowsOf<Record<string, unknown>>(countRows).map((r) => [r.bucket, r]));
  const activeAt = new Map(rowsOf<{ bucket: string; count: number }>(activeRows).map((r) => [r.bucket, Number(r.count)]));
  const visitsAt = new Map(visits.map((r) => [r.bucket, r.count]));
  const activity = bucketsOf(period, bucket).map((key) => {
    const c = countsAt.get(key);
    const n = (column: DayCount) => Number(c?.[column] ?? 0);
    return {
      bucket: key, visits: visitsAt.get(key) ?? 0, signups: n('signups'), activations: n('activations'), first_purchases: n('first_purchases'),
      messages_paid: n('messages_paid'), messages_free: n('messages_free'), messages_to_fictional: n('messages_to_fictional'), gifts: n('gifts'), gifts_to_fictional: n('gifts_to_fictional'),
      active_members: activeAt.get(key) ?? 0, page_bounces: n('page_bounces'),
    };
  });
  const table = (t: string) => rowsOf<MoneyRow>(moneyRows).filter((r) => r.t === t).map((r) => ({ key: r.key, currency: r.currency, orders: Number(r.orders), cents: Number(r.cents) }));
  const perBucket = (t: string) => table(t).map(({ key, ...rest }) => ({ bucket: key, ...rest }));
  const total = (column: 'visits' | DayCount) => activity.reduce((n, row) => n + row[column], 0);
  return {
    from: period.from, to: period.to, bucket, site_id: siteId, activity,
    totals: {
      visits: visits.reduce((n, r) => n + r.count, 0), signups: total('signups'), activations: total('activations'), first_purchases: total('first_purchases'),
      active_members: activeAt.get('total') ?? 0, page_bounces: total('page_bounces'),
    },
    by_lander: rowsOf<Record<'visits' | 'signups' | 'activations' | 'first_purchases', number> & { lander: string }>(landerRows).map((r) => ({
      lander: r.lander, visits: Number(r.visits), signups: Number(r.signups), activations: Number(r.activations), first_purchases: Number(r.first_purchases),
    })),
    revenue: perBucket('revenue'), by_method: table('by_method'), by_country: table('by_country'), by_package: table('by_package'), by_site: table('by_site'),
    refunds: perBucket('refunds'), chargebacks: perBucket('chargebacks'),
  };
}

export type DashboardTable = (typeof DASHBOARD_TABLES)[number];

/** A part of a whole in percent, to one decimal (a spreadsheet's number); none of nothing. */
const percentOf = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : null);

/** The per-lander table with its conversion: sign-ups per visit and first purchases per sign-up, in percent. */
const landerCsvRows = (report: Dashboard) => report.by_lander.map((row) => ({
  ...row, signups_per_visit_percent: percentOf(row.signups, row.visits), first_purchases_per_signup_percent: percentOf(row.first_purchases, row.signups),
}));

/** One table of the dashboard as CSV, with its header row. */
export function dashboardCsv(report: Dashboard, table: DashboardTable): string {
  if (table === 'by_lander') {
    const header = ['lander', 'visits', 'signups', 'activations', 'first_purchases', 'signups_per_visit_percent', 'first_purchases_per_signup_percent'] as const;
    return csvFile([header, ...landerCsvRows(report).map((row) => header.map((name) => row[name]))]);
  }
  const rows: Record<string, unknown>[] = table === 'activity' ? report.activity : report[table];
  const header = Object.keys(rows[0] ?? (table === 'activity' ? { bucket: '' } : table === 'revenue' || table === 'refunds' || table === 'chargebacks'
    ? { bucket: '', currency: '', orders: 0, cents: 0 } : { key: '', currency: '', orders: 0, cents: 0 }));
  return csvFile([header, ...rows.map((row) => header.map((name) => row[name]))]);
}
