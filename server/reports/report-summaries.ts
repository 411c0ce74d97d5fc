/**
 * The reports' summaries (decision 081): the dashboard's figures per site and UTC day, from the tables the member side
 * writes. The same SQL fills the summary tables for closed days (the hourly job) and counts the days after them live,
 * so a dashboard reads a few hundred summary rows per site and year plus the open day.
 */
import { max, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client.ts';
import {
  conversations, messages, orderRefunds, orders, pageBounces, payments, profiles, reportActiveDays, reportBuilds, reportDays, reportLanderDays, reportMemberDays,
  reportMoneyDays, sessions, users,
} from '../db/schema.ts';

const DAY_MS = 86_400_000;
/**
 * Each run builds the closed days after the latest built one and again the last two: a row is dated by its
 * transaction's start (now()), so a write begun before midnight may commit after the run that closed its day.
 */
const REBUILD_DAYS = 2;

/** UTC days from `from` to `to`, both included, as ISO dates. */
export interface Days { from: string; to: string }

export const addDays = (day: string, n: number) => new Date(new Date(`${day}T00:00:00Z`).getTime() + n * DAY_MS).toISOString().slice(0, 10);
const within = (column: SQL, days: Days) =>
  sql`(${column} >= ${`${days.from}T00:00:00Z`}::timestamptz and ${column} < ${`${addDays(days.to, 1)}T00:00:00Z`}::timestamptz)`;
const dayOf = (column: SQL) => sql`(${column} at time zone 'UTC')::date`;
/** Only the rows of `siteIds` (null: every site). */
export const ofSites = (column: SQL, siteIds: readonly number[] | null): SQL =>
  siteIds === null ? sql`true` : siteIds.length ? sql`${column} in (${sql.join(siteIds.map((id) => sql`${id}::int`), sql`, `)})` : sql`false`;

/** The counted columns of report_days, in their order. */
export const DAY_COUNTS = ['signups', 'activations', 'first_purchases', 'messages_paid', 'messages_free', 'messages_to_fictional', 'gifts', 'gifts_to_fictional', 'page_bounces'] as const;
export type DayCount = (typeof DAY_COUNTS)[number];
export const dayCountColumns = sql.join(DAY_COUNTS.map((c) => sql.identifier(c)), sql`, `);

/** One table's share of the day counts: `counts` in their columns, zero in the others, per site and day. */
const countsOf = (site: SQL, day: SQL, counts: Partial<Record<DayCount, SQL>>, rest: SQL) =>
  sql`select ${site} as site_id, ${day} as day, ${sql.join(DAY_COUNTS.map((c) => sql`${counts[c] ?? sql`0`}::int as ${sql.identifier(c)}`), sql`, `)} ${rest} group by 1, 2`;

/** The members whose first completed order lies in `days`, as `f (user_id, first_at)`: only members who completed one in them are looked at. */
const firstPurchases = (days: Days) => sql`(
  select o.user_id, min(o.completed_at) as first_at from ${orders} o
  where o.status = 'completed' and o.user_id in (select c.user_id from ${orders} c where c.status = 'completed' and ${within(sql`c.completed_at`, days)})
  group by o.user_id
) f`;

/**
 * Rows (site_id, day, …DAY_COUNTS) of `days`, a site and day in several rows (one per table): members by their site,
 * orders and messages by their member's site. A first purchase is a member's earliest completed order.
 */
export function liveDayCounts(days: Days, siteIds: readonly number[] | null): SQL {
  const member = ofSites(sql`u.site_id`, siteIds);
  return sql.join([
    countsOf(sql`u.site_id`, dayOf(sql`u.signup_date`), { signups: sql`count(*)` }, sql`from ${users} u where ${within(sql`u.signup_date`, days)} and ${member}`),
    countsOf(sql`u.site_id`, dayOf(sql`u.activated_at`), { activations: sql`count(*)` }, sql`from ${users} u where ${within(sql`u.activated_at`, days)} and ${member}`),
    countsOf(sql`u.site_id`, dayOf(sql`f.first_at`), { first_purchases: sql`count(*)` }, sql`from ${firstPurchases(days)} join ${users} u on u.id = f.user_id
      where ${within(sql`f.first_at`, days)} and ${member}`),
    // The recipient is the other member of the conversation; a message to a profile gone since counts as to a real one.
    countsOf(sql`u.site_id`, dayOf(sql`m.created_at`), {
      messages_paid: sql`count(case when m.kind <> 'gift' and m.credits_spent > 0 then 1 end)`,
      messages_free: sql`count(case when m.kind <> 'gift' and m.credits_spent = 0 then 1 end)`,
      messages_to_fictional: sql`count(case when m.kind <> 'gift' and r.fictional then 1 end)`,
      gifts: sql`count(case when m.kind = 'gift' then 1 end)`,
      gifts_to_fictional: sql`count(case when m.kind = 'gift' and r.fictional then 1 end)`,
    }, sql`from ${messages} m join ${users} u on u.id = m.sender_id join ${conversations} c on c.id = m.conversation_id
      left join ${profiles} r on r.user_id = case when c.user_low = m.sender_id then c.user_high else c.user_low end
      where ${within(sql`m.created_at`, days)} and ${member}`),
    countsOf(sql`b.site_id`, dayOf(sql`b.created_at`), { page_bounces: sql`count(*)` },
      sql`from ${pageBounces} b where ${within(sql`b.created_at`, days)} and ${ofSites(sql`b.site_id`, siteIds)}`),
  ], sql` union all `);
}

/** The columns of report_lander_days, in their order. */
export const LANDER_COLUMNS = sql`site_id, day, lander, signups, activations, first_purchases`;

/**
 * Rows of report_lander_days (LANDER_COLUMNS) for `days`: per site, day and lander, the sign-ups, activations and first
 * purchases of the members who signed up from that lander (users.lander, decision 083), each on the day it happened as
 * liveDayCounts dates them; a site, day and lander in up to three rows. Members without a lander are left out.
 */
export function liveLanderCounts(days: Days, siteIds: readonly number[] | null): SQL {
  const member = sql`u.lander is not null and ${ofSites(sql`u.site_id`, siteIds)}`;
  return sql`
    select u.site_id, ${dayOf(sql`u.signup_date`)} as day, u.lander, count(*)::int as signups, 0 as activations, 0 as first_purchases
    from ${users} u where ${within(sql`u.signup_date`, days)} and ${member} group by 1, 2, 3
    union all
    select u.site_id, ${dayOf(sql`u.activated_at`)}, u.lander, 0, count(*)::int, 0
    from ${users} u where ${within(sql`u.activated_at`, days)} and ${member} group by 1, 2, 3
    union all
    select u.site_id, ${dayOf(sql`f.first_at`)}, u.lander, 0, 0, count(*)::int
    from ${firstPurchases(days)} join ${users} u on u.id = f.user_id where ${within(sql`f.first_at`, days)} and ${member} group by 1, 2, 3`;
}

/** The columns of report_money_days, in their order. */
export const MONEY_COLUMNS = sql`site_id, day, kind, currency, paymentmethod, country, package_id, orders, cents`;

/**
 * Rows of report_money_days for `days`: completed orders by the day they completed, per currency, method, the member's
 * country and package; refunds by their day and chargebacks by the day the payment turned charged back, per currency.
 */
export function liveMoney(days: Days, siteIds: readonly number[] | null): SQL {
  const member = ofSites(sql`u.site_id`, siteIds);
  return sql`
    select u.site_id, ${dayOf(sql`o.completed_at`)} as day, 'order'::text as kind, o.currency, o.paymentmethod, coalesce(p.country, '') as country,
      o.package_id, count(*)::int as orders, sum(o.amount_cents)::bigint as cents
    from ${orders} o join ${users} u on u.id = o.user_id left join ${profiles} p on p.user_id = o.user_id
    where o.status = 'completed' and ${within(sql`o.completed_at`, days)} and ${member}
    group by 1, 2, 4, 5, 6, 7
    union all
    select u.site_id, ${dayOf(sql`r.created_at`)}, 'refund', o.currency, '', '', 0, count(*)::int, sum(r.amount_cents)::bigint
    from ${orderRefunds} r join ${orders} o on o.id = r.order_id join ${users} u on u.id = o.user_id
    where ${within(sql`r.created_at`, days)} and ${member}
    group by 1, 2, 4
    union all
    select u.site_id, ${dayOf(sql`pm.updated_at`)}, 'chargeback', o.currency, '', '', 0, count(*)::int, sum(o.amount_cents)::bigint
    from ${payments} pm join ${orders} o on o.id = pm.order_id join ${users} u on u.id = o.user_id
    where pm.status = 'charged_back' and ${within(sql`pm.updated_at`, days)} and ${member}
    group by 1, 2, 4`;
}

/** Rows (site_id, user_id, day), one per member and day of `days` on which they sent a message or signed in. */
export function liveMemberDays(days: Days, siteIds: readonly number[] | null): SQL {
  const member = ofSites(sql`u.site_id`, siteIds);
  return sql`
    select u.site_id, m.sender_id as user_id, ${dayOf(sql`m.created_at`)} as day from ${messages} m join ${users} u on u.id = m.sender_id
    where ${within(sql`m.created_at`, days)} and ${member}
    union
    select u.site_id, s.user_id, ${dayOf(sql`s.created_at`)} from ${sessions} s join ${users} u on u.id = s.user_id
    where ${within(sql`s.created_at`, days)} and ${member}`;
}

/**
 * Rows (site_id, day, previous_day, members) of report_active_days from member days `memberDays` starting on `from`:
 * each member's previous active day is the one before in `memberDays`, else the latest summarised one before `from`.
 */
export function activeByPreviousDay(memberDays: SQL, from: string): SQL {
  return sql`
    select site_id, day, previous_day, count(*)::int as members from (
      select a.site_id, a.day, coalesce(lag(a.day) over (partition by a.site_id, a.user_id order by a.day),
        (select max(b.day) from ${reportMemberDays} b where b.site_id = a.site_id and b.user_id = a.user_id and b.day < ${from}::date)) as previous_day
      from (${memberDays}) a
    ) g group by 1, 2, 3`;
}

/** The latest day the summaries hold, or null before the first build. */
export async function summarisedThrough(db: Db): Promise<string | null> {
  const [row] = await db.select({ day: max(reportBuilds.day) }).from(reportBuilds);
  return row?.day ?? null;
}

/**
 * Builds the summaries of `days` (all sites) in one transaction, replacing what they held. Two runs at once (a run
 * that outlasts its hour) take turns.
 */
async function buildDays(db: Db, days: Days, now: Date): Promise<void> {
  const inDays = sql`day between ${days.from}::date and ${days.to}::date`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('report-summaries', 0))`);
    for (const table of [reportDays, reportLanderDays, reportMoneyDays, reportMemberDays, reportActiveDays]) await tx.execute(sql`delete from ${table} where ${inDays}`);
    await tx.execute(sql`insert into ${reportDays} (site_id, day, ${dayCountColumns})
      select site_id, day, ${sql.join(DAY_COUNTS.map((c) => sql`sum(${sql.identifier(c)})`), sql`, `)} from (${liveDayCounts(days, null)}) c group by 1, 2`);
    await tx.execute(sql`insert into ${reportLanderDays} (${LANDER_COLUMNS})
      select site_id, day, lander, sum(signups), sum(activations), sum(first_purchases) from (${liveLanderCounts(days, null)}) c group by 1, 2, 3`);
    await tx.execute(sql`insert into ${reportMoneyDays} (${MONEY_COLUMNS}) ${liveMoney(days, null)}`);
    await tx.execute(sql`insert into ${reportMemberDays} (site_id, user_id, day) ${liveMemberDays(days, null)}`);
    await tx.execute(sql`insert into ${reportActiveDays} (site_id, day, previous_day, members)
      ${activeByPreviousDay(sql`select site_id, user_id, day from ${reportMemberDays} where ${inDays}`, days.from)}`);
    await tx.execute(sql`insert into ${reportBuilds} (day, built_at)
      select d::date, ${now.toISOString()}::timestamptz from generate_series(${days.from}::date, ${days.to}::date, interval '1 day') d
      on conflict (day) do update set built_at = excluded.built_at`);
  });
}

/**
 * The hourly job: builds the closed days (before `now`'s UTC day) after the latest built one, and again the last
 * REBUILD_DAYS. The first run builds every day since the first row any figure counts. Returns the days built, or null.
 */
export async function buildReportSummaries(db: Db, now: Date): Promise<Days | null> {
  const yesterday = addDays(now.toISOString().slice(0, 10), -1);
  const built = await summarisedThrough(db);
  let from = built === null ? null : [addDays(built, 1), addDays(yesterday, 1 - REBUILD_DAYS)].sort()[0];
  if (from === null) {
    const [first] = rowsOf<{ day: string | null }>(await db.execute(sql`select (least(
        (select min(signup_date) from ${users}), (select min(created_at) from ${messages}), (select min(completed_at) from ${orders} where status = 'completed'),
        (select min(created_at) from ${sessions}), (select min(created_at) from ${orderRefunds}), (select min(updated_at) from ${payments} where status = 'charged_back'),
        (select min(created_at) from ${pageBounces})
      ) at time zone 'UTC')::date::text as day`));
    from = first?.day ?? yesterday;
  }
  if (from > yesterday) return null;
  // A day at a time: each statement reads one day of each table, which stays well within the statement limit
  // (DATABASE_STATEMENT_TIMEOUT_MS) on the largest site, and a first build of years of history holds no long transaction.
  for (let day = from; day <= yesterday; day = addDays(day, 1)) await buildDays(db, { from: day, to: day }, now);
  return { from, to: yesterday };
}
