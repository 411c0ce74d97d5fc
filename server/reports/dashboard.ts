import { and, count, eq, inArray, min, sql, sum, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Dashboard, DashboardBucket, DashboardQuery } from '#common/contracts/dashboard.ts';
import { DASHBOARD_TABLES } from '#common/contracts/dashboard.ts';
import { csvFile } from '#common/csv.ts';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { conversations, creditPackages, landerVisits, messages, orderRefunds, orders, pageBounces, payments, profiles, sessions, sites, users } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { Period } from './transparency.ts';

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

const within = (column: AnyColumn | SQL, period: Period) => sql`(${column} >= ${period.start.toISOString()}::timestamptz and ${column} < ${period.end.toISOString()}::timestamptz)`;
const ofSites = (column: AnyColumn, siteIds: readonly number[] | null): SQL | undefined =>
  siteIds === null ? undefined : siteIds.length ? inArray(column, [...siteIds]) : sql`false`;
/** The bucket of a timestamp column, as its first day (`bucket` is one of the three names, never input text). */
const bucketKey = (column: AnyColumn | SQL, bucket: DashboardBucket) =>
  sql<string>`to_char(date_trunc('${sql.raw(bucket)}', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;
const cents = (column: AnyColumn) => sql<number>`coalesce(${sum(column)}, 0)`.mapWith(Number);

/**
 * The reports dashboard's figures for `siteIds` (null: every site) over `period` in `bucket`s, straight from the
 * tables the member side writes: members by their site, orders, refunds and messages by their member's site.
 * Money stays per currency. Visits to landers come from their per-day counts.
 */
export async function dashboardFigures(db: Db, period: Period, bucket: DashboardBucket, siteIds: readonly number[] | null, siteId: number | null): Promise<Dashboard> {
  const memberSites = ofSites(users.siteId, siteIds);
  const paid = and(eq(orders.status, 'completed'), within(orders.completedAt, period), memberSites);
  // The other member of a message's conversation, and whether their profile is fictional.
  const recipient = sql`case when ${conversations.userLow} = ${messages.senderId} then ${conversations.userHigh} else ${conversations.userLow} end`;
  const recipientProfile = alias(profiles, 'recipient');
  const fictional = sql<boolean>`coalesce(${recipientProfile.fictional}, false)`;
  const firstOrders = db.select({ userId: orders.userId, first: min(orders.completedAt).as('first') }).from(orders)
    .innerJoin(users, eq(users.id, orders.userId)).where(and(eq(orders.status, 'completed'), memberSites)).groupBy(orders.userId).as('first_orders');
  const firstDone = sql`"first_orders"."first"`;
  const activity = db.select({ userId: messages.senderId, at: messages.createdAt }).from(messages).innerJoin(users, eq(users.id, messages.senderId))
    .where(and(within(messages.createdAt, period), memberSites))
    .unionAll(db.select({ userId: sessions.userId, at: sessions.createdAt }).from(sessions).where(and(within(sessions.createdAt, period), ofSites(sessions.siteId, siteIds))))
    .as('activity');
  const revenueBy = (key: SQL<string> | AnyColumn, joins: 'country' | 'package' | 'site' | null) => {
    let query = db.select({ key: sql<string>`${key}::text`, currency: orders.currency, orders: count(), cents: cents(orders.amountCents) })
      .from(orders).innerJoin(users, eq(users.id, orders.userId)).$dynamic();
    if (joins === 'country') query = query.leftJoin(profiles, eq(profiles.userId, orders.userId));
    if (joins === 'site') query = query.innerJoin(sites, eq(sites.id, users.siteId));
    return query.where(paid).groupBy(sql`1`, orders.currency).orderBy(sql`1`, orders.currency);
  };

  const [visits, signups, activations, first, sent, active, activeTotal, bounces, revenue, byMethod, byCountry, byPackage, bySite, refunds, chargebacks] = await Promise.all([
    // Lander visits are counted per day: a day of the period is a whole row, so days bound it, not instants.
    db.select({ bucket: sql<string>`to_char(date_trunc('${sql.raw(bucket)}', ${landerVisits.day}::timestamp), 'YYYY-MM-DD')`, count: sql<number>`coalesce(${sum(landerVisits.visits)}, 0)`.mapWith(Number) })
      .from(landerVisits).where(and(sql`${landerVisits.day} between ${period.from}::date and ${period.to}::date`, ofSites(landerVisits.siteId, siteIds))).groupBy(sql`1`),
    db.select({ bucket: bucketKey(users.signupDate, bucket), count: count() }).from(users).where(and(within(users.signupDate, period), memberSites)).groupBy(sql`1`),
    db.select({ bucket: bucketKey(users.activatedAt, bucket), count: count() }).from(users).where(and(within(users.activatedAt, period), memberSites)).groupBy(sql`1`),
    db.select({ bucket: bucketKey(firstDone, bucket), count: count() }).from(firstOrders).where(within(firstDone, period)).groupBy(sql`1`),
    db.select({
      bucket: bucketKey(messages.createdAt, bucket),
      paid: count(sql`case when ${messages.kind} <> 'gift' and ${messages.creditsSpent} > 0 then 1 end`),
      free: count(sql`case when ${messages.kind} <> 'gift' and ${messages.creditsSpent} = 0 then 1 end`),
      toFictional: count(sql`case when ${messages.kind} <> 'gift' and ${fictional} then 1 end`),
      gifts: count(sql`case when ${messages.kind} = 'gift' then 1 end`),
      giftsToFictional: count(sql`case when ${messages.kind} = 'gift' and ${fictional} then 1 end`),
    }).from(messages).innerJoin(users, eq(users.id, messages.senderId)).innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(recipientProfile, sql`${recipientProfile.userId} = ${recipient}`)
      .where(and(within(messages.createdAt, period), memberSites)).groupBy(sql`1`),
    db.select({ bucket: bucketKey(activity.at, bucket), count: sql<number>`count(distinct ${activity.userId})`.mapWith(Number) }).from(activity).groupBy(sql`1`),
    db.select({ count: sql<number>`count(distinct ${activity.userId})`.mapWith(Number) }).from(activity),
    db.select({ bucket: bucketKey(pageBounces.createdAt, bucket), count: count() }).from(pageBounces)
      .where(and(within(pageBounces.createdAt, period), ofSites(pageBounces.siteId, siteIds))).groupBy(sql`1`),
    db.select({ bucket: bucketKey(orders.completedAt, bucket), currency: orders.currency, orders: count(), cents: cents(orders.amountCents) })
      .from(orders).innerJoin(users, eq(users.id, orders.userId)).where(paid).groupBy(sql`1`, orders.currency).orderBy(sql`1`, orders.currency),
    revenueBy(orders.paymentmethod, null),
    revenueBy(sql<string>`coalesce(${profiles.country}, '')`, 'country'),
    revenueBy(sql<string>`(select ${creditPackages.credits} from ${creditPackages} where ${creditPackages.id} = ${orders.packageId})`, 'package'),
    revenueBy(sites.name, 'site'),
    db.select({ bucket: bucketKey(orderRefunds.createdAt, bucket), currency: orders.currency, orders: count(), cents: cents(orderRefunds.amountCents) })
      .from(orderRefunds).innerJoin(orders, eq(orders.id, orderRefunds.orderId)).innerJoin(users, eq(users.id, orders.userId))
      .where(and(within(orderRefunds.createdAt, period), memberSites)).groupBy(sql`1`, orders.currency).orderBy(sql`1`, orders.currency),
    db.select({ bucket: bucketKey(payments.updatedAt, bucket), currency: orders.currency, orders: count(), cents: cents(orders.amountCents) })
      .from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).innerJoin(users, eq(users.id, orders.userId))
      .where(and(eq(payments.status, 'charged_back'), within(payments.updatedAt, period), memberSites)).groupBy(sql`1`, orders.currency).orderBy(sql`1`, orders.currency),
  ]);

  const byBucket = (rows: { bucket: string; count: number }[]) => new Map(rows.map((r) => [r.bucket, r.count]));
  const [visitsAt, signupsAt, activationsAt, firstAt, activeAt, bouncesAt] = [visits, signups, activations, first, active, bounces].map(byBucket);
  const sentAt = new Map(sent.map((r) => [r.bucket, r]));
  const total = (rows: { count: number }[]) => rows.reduce((t, r) => t + r.count, 0);
  return {
    from: period.from, to: period.to, bucket, site_id: siteId,
    activity: bucketsOf(period, bucket).map((key) => {
      const m = sentAt.get(key);
      return {
        bucket: key, visits: visitsAt.get(key) ?? 0, signups: signupsAt.get(key) ?? 0, activations: activationsAt.get(key) ?? 0, first_purchases: firstAt.get(key) ?? 0,
        messages_paid: m?.paid ?? 0, messages_free: m?.free ?? 0, messages_to_fictional: m?.toFictional ?? 0, gifts: m?.gifts ?? 0, gifts_to_fictional: m?.giftsToFictional ?? 0,
        active_members: activeAt.get(key) ?? 0, page_bounces: bouncesAt.get(key) ?? 0,
      };
    }),
    totals: { visits: total(visits), signups: total(signups), activations: total(activations), first_purchases: total(first), active_members: activeTotal[0]?.count ?? 0, page_bounces: total(bounces) },
    revenue, by_method: byMethod, by_country: byCountry, by_package: byPackage, by_site: bySite, refunds, chargebacks,
  };
}

export type DashboardTable = (typeof DASHBOARD_TABLES)[number];

/** One table of the dashboard as CSV, with its header row. */
export function dashboardCsv(report: Dashboard, table: DashboardTable): string {
  const rows: Record<string, unknown>[] = table === 'activity' ? report.activity : report[table];
  const header = Object.keys(rows[0] ?? (table === 'activity' ? { bucket: '' } : table === 'revenue' || table === 'refunds' || table === 'chargebacks'
    ? { bucket: '', currency: '', orders: 0, cents: 0 } : { key: '', currency: '', orders: 0, cents: 0 }));
  return csvFile([header, ...rows.map((row) => header.map((name) => row[name]))]);
}
