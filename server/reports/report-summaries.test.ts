import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { DashboardBucket } from '#common/contracts/dashboard.ts';
import {
  conversations, creditPackages, landerVisits, messages, orderRefunds, orders, pageBounces, payments, profiles, reportBuilds, reportDays, sessions, users,
} from '../db/schema.ts';
import { addOtherSite } from '../../tests/helpers/other-site.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { dashboardFigures, dashboardPeriod } from './dashboard.ts';
import { buildReportSummaries } from './report-summaries.ts';

/** An instant of 2026 (UTC): `month`/`day` at `hour`. */
const at = (month: number, day: number, hour = 12, minute = 0) => new Date(Date.UTC(2026, month - 1, day, hour, minute));
const BUCKETS: DashboardBucket[] = ['day', 'week', 'month'];
/** Across the summaries' end and today, closed days only from a Tuesday, today only, and two whole months. */
const PERIODS = [{ from: '2026-02-23', to: '2026-03-10' }, { from: '2026-03-03', to: '2026-03-07' }, { from: '2026-03-08', to: '2026-03-08' }, { from: '2026-02-01', to: '2026-03-31' }];

describe.each(DATABASE_KINDS)('the reports summaries on %s', (kind) => {
  let t: TestApp;
  let otherSite: number;
  let o1: string;
  let o2: string;
  let withG: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const db = t.database.db;
    let b1: number;
    ({ siteId: otherSite, userId: b1 } = await addOtherSite(db));
    const [pack, bigPack] = await db.select().from(creditPackages).orderBy(asc(creditPackages.id)).limit(2);
    const member = async (n: string, country: string, signupDate: Date, values: { activatedAt?: Date; fictional?: boolean; siteId?: number } = {}) => {
      const [row] = await db.insert(users).values({ siteId: values.siteId ?? t.siteId, email: `${n}-${kind}@example.org`, passwordHash: 'x', signupDate, activatedAt: values.activatedAt }).returning();
      await db.insert(profiles).values({ userId: row.id, name: n, gender: 'female', birthDate: '1990-01-01', country, fictional: values.fictional ?? false });
      return row.id;
    };
    // The site's members: three who sign up around the turn of the month, a fictional profile and a real one from last year.
    const a1 = await member('a1', 'NL', at(2, 26, 10), { activatedAt: at(2, 26, 11) });
    const a2 = await member('a2', 'GB', at(3, 2));
    const a3 = await member('a3', 'DE', at(3, 3), { activatedAt: at(3, 5) });
    const f = await member('f', 'NL', new Date(Date.UTC(2025, 5, 1)), { fictional: true });
    const g = await member('g', 'NL', new Date(Date.UTC(2025, 5, 1)));
    const b2 = await member('b2', 'DE', at(3, 2), { siteId: otherSite });

    const order = (id: string, userId: number, amountCents: number, currency: string, paymentmethod: string, completedAt: Date | null, packageId = pack.id) => ({
      id: `${id}-${kind}`, userId, packageId, credits: 50, amountCents, currency, paymentmethod, idempotencyKey: id,
      status: completedAt ? 'completed' as const : 'failed' as const, createdAt: completedAt ?? at(3, 4), completedAt,
    });
    await db.insert(orders).values([
      order('o1', a1, 1000, 'EUR', 'ideal', at(2, 27)),
      order('o2', a1, 2000, 'EUR', 'creditcard', at(3, 2)),
      order('o3', a2, 1500, 'GBP', 'creditcard', at(3, 3)),
      order('o4', a3, 1000, 'EUR', 'ideal', null),
      order('o5', a3, 1000, 'EUR', 'ideal', at(3, 5), bigPack.id),
      order('o6', b2, 999, 'EUR', 'ideal', at(3, 2)),
      // Today's (the clock's day is 8 March): counted live.
      order('o7', a1, 500, 'EUR', 'paypal', at(3, 8, 10)),
    ]);
    [o1, o2] = [`o1-${kind}`, `o2-${kind}`];
    await db.insert(orderRefunds).values({ orderId: `o3-${kind}`, amountCents: 500, creditsTaken: 0, reason: 'Goodwill', idempotencyKey: 'r1', createdAt: at(3, 4) });
    await db.insert(payments).values({ orderId: `o5-${kind}`, provider: 'test', providerRef: `p5-${kind}`, status: 'charged_back', updatedAt: at(3, 6) });

    const pair = async (x: number, y: number) => (await db.insert(conversations).values({ userLow: Math.min(x, y), userHigh: Math.max(x, y) }).returning())[0].id;
    const [withF, a2G, a3G, elsewhere] = [await pair(a1, f), await pair(a2, g), await pair(a3, g), await pair(b1, b2)];
    withG = a2G;
    const message = (conversationId: number, senderId: number, createdAt: Date, creditsSpent: number, kind: 'text' | 'gift' = 'text') => ({ conversationId, senderId, createdAt, creditsSpent, kind, body: 'Hi' });
    await db.insert(messages).values([
      message(withF, a1, at(2, 27), 10), message(withF, a1, at(3, 2), 0), message(withF, a1, at(3, 2, 13), 20, 'gift'),
      message(a2G, a2, at(3, 3), 0), message(withF, f, at(3, 3), 0), message(withF, a1, at(3, 3, 14), 20, 'gift'),
      message(a3G, a3, at(3, 6), 10), message(withF, a1, at(3, 8, 9), 10), message(elsewhere, b2, at(3, 2), 10),
    ]);
    await db.insert(sessions).values([
      { id: `s1-${kind}`, userId: a3, siteId: t.siteId, createdAt: at(3, 4), expiresAt: at(4, 30) },
      { id: `s2-${kind}`, userId: a2, siteId: t.siteId, createdAt: at(3, 7), expiresAt: at(4, 30) },
      { id: `s3-${kind}`, userId: g, siteId: t.siteId, createdAt: at(2, 28), expiresAt: at(4, 30) },
      { id: `s4-${kind}`, userId: a1, siteId: t.siteId, createdAt: at(3, 8, 8), expiresAt: at(4, 30) },
    ]);
    await db.insert(pageBounces).values([
      { siteId: t.siteId, path: '/', seconds: 3, createdAt: at(2, 27) }, { siteId: t.siteId, path: '/', seconds: 1, createdAt: at(3, 2) },
      { siteId: t.siteId, path: '/landers/video', seconds: 2, createdAt: at(3, 2, 15) }, { siteId: t.siteId, path: '/', seconds: 2, createdAt: at(3, 8, 7) },
      { siteId: otherSite, path: '/', seconds: 2, createdAt: at(3, 2) },
    ]);
    await db.insert(landerVisits).values([
      { siteId: t.siteId, lander: 'gallery', day: '2026-02-27', visits: 2 }, { siteId: t.siteId, lander: 'gallery', day: '2026-03-02', visits: 3 },
      { siteId: t.siteId, lander: 'video', day: '2026-03-08', visits: 4 }, { siteId: otherSite, lander: 'gallery', day: '2026-03-02', visits: 1 },
    ]);
    // Half an hour into 8 March: the hourly run builds every closed day, since the first member's.
    t.clock.set('2026-03-08T00:30:00Z');
    const built = await buildReportSummaries(db, t.clock());
    expect(built?.to).toBe('2026-03-07');
    expect(built!.from <= '2025-06-01').toBe(true);
  });
  afterAll(() => t.close());

  const figures = async (days: { from: string; to: string }, bucket: DashboardBucket, siteIds: number[] | null, summaries = true) =>
    dashboardFigures(t.database.db, dashboardPeriod({ ...days, bucket }, t.clock()), bucket, siteIds, siteIds?.length === 1 ? siteIds[0] : null, { summaries });

  /** The dashboard from the summaries and today equals the dashboard counted live, in every figure, bucket, period and choice of sites. */
  async function expectSummariesEqualLive() {
    for (const days of PERIODS) {
      for (const bucket of BUCKETS) {
        for (const sites of [[t.siteId], null, [otherSite]]) {
          const what = `${days.from}–${days.to} per ${bucket} on ${sites?.join() ?? 'all sites'}`;
          expect(await figures(days, bucket, sites), what).toEqual(await figures(days, bucket, sites, false));
        }
      }
    }
  }

  it('counts closed days from the summaries and today live, as the live count has them', async () => {
    expect(await t.database.db.select().from(reportDays).where(eq(reportDays.day, '2026-03-02')))
      .toEqual(expect.arrayContaining([expect.objectContaining({ siteId: t.siteId, signups: 1, firstPurchases: 0, messagesFree: 1, messagesToFictional: 1, gifts: 1, pageBounces: 2 })]));
    await expectSummariesEqualLive();
    const weeks = await figures(PERIODS[0], 'week', [t.siteId]);
    // a1 is active on 2, 3 and (today) 8 March, a2 on the 3rd and 7th: each once in the week of 2 March.
    expect(weeks.activity.map((row) => [row.bucket, row.active_members, row.signups, row.first_purchases, row.messages_paid, row.gifts, row.page_bounces, row.visits])).toEqual([
      ['2026-02-23', 2, 1, 1, 1, 0, 1, 2], ['2026-03-02', 4, 2, 2, 2, 2, 3, 7], ['2026-03-09', 0, 0, 0, 0, 0, 0, 0],
    ]);
    expect(weeks.totals).toEqual({ visits: 9, signups: 3, activations: 2, first_purchases: 3, active_members: 5, page_bounces: 4 });
    expect(weeks.by_method).toEqual([
      { key: 'creditcard', currency: 'EUR', orders: 1, cents: 2000 }, { key: 'creditcard', currency: 'GBP', orders: 1, cents: 1500 },
      { key: 'ideal', currency: 'EUR', orders: 2, cents: 2000 }, { key: 'paypal', currency: 'EUR', orders: 1, cents: 500 },
    ]);
    expect(weeks.by_package.map((row) => row.key)).toEqual(['150', '50', '50']);
    // From a Tuesday, a week's members are those of its days in the period: a1 was active on the Monday too, and counts.
    const fromTuesday = await figures(PERIODS[1], 'week', [t.siteId]);
    expect(fromTuesday.activity.map((row) => row.active_members)).toEqual([4]);
    expect(fromTuesday.totals.active_members).toBe(4);
  });

  it('rebuilds the last two closed days each hour: a write dated before midnight and committed after the run counts', async () => {
    const db = t.database.db;
    // A message whose transaction began a few seconds before midnight and committed after the run.
    await db.insert(messages).values({ conversationId: withG, senderId: (await db.select().from(conversations).where(eq(conversations.id, withG)))[0].userLow,
      createdAt: at(3, 7, 23, 59), creditsSpent: 10, kind: 'text', body: 'Late' });
    const closed = { from: '2026-03-07', to: '2026-03-07' };
    expect((await figures(closed, 'day', [t.siteId])).activity[0].messages_paid).toBe(0);
    expect((await figures(closed, 'day', [t.siteId], false)).activity[0].messages_paid).toBe(1);
    t.clock.set('2026-03-08T01:30:00Z');
    expect(await buildReportSummaries(db, t.clock())).toEqual({ from: '2026-03-06', to: '2026-03-07' });
    expect((await figures(closed, 'day', [t.siteId])).activity[0].messages_paid).toBe(1);
    await expectSummariesEqualLive();
  });

  it('dates refunds and chargebacks of old orders on their own day: closed days keep their figures', async () => {
    const db = t.database.db;
    const closedBefore = await figures({ from: '2026-02-23', to: '2026-03-07' }, 'day', [t.siteId]);
    t.clock.set('2026-03-08T11:00:00Z');
    await db.insert(orderRefunds).values({ orderId: o1, amountCents: 1000, creditsTaken: 50, reason: 'Within the refund days', idempotencyKey: 'r2', createdAt: t.clock() });
    await db.insert(payments).values({ orderId: o2, provider: 'test', providerRef: `p2-${kind}`, status: 'charged_back', updatedAt: t.clock() });
    await expectSummariesEqualLive();
    expect(await figures({ from: '2026-02-23', to: '2026-03-07' }, 'day', [t.siteId])).toEqual(closedBefore);
    const today = await figures({ from: '2026-03-08', to: '2026-03-08' }, 'day', [t.siteId]);
    expect(today.refunds).toEqual([{ bucket: '2026-03-08', currency: 'EUR', orders: 1, cents: 1000 }]);
    expect(today.chargebacks).toEqual([{ bucket: '2026-03-08', currency: 'EUR', orders: 1, cents: 2000 }]);

    // Two days on, the run builds the day that was open and the next; today is counted live again.
    t.clock.set('2026-03-10T00:30:00Z');
    expect(await buildReportSummaries(db, t.clock())).toEqual({ from: '2026-03-08', to: '2026-03-09' });
    expect(await db.select({ day: reportBuilds.day }).from(reportBuilds).orderBy(asc(reportBuilds.day)).then((rows) => rows.at(-1)?.day)).toBe('2026-03-09');
    await expectSummariesEqualLive();
  });

  it('keeps a closed day as it was counted when history is deleted later (a purged account\'s conversations)', async () => {
    const db = t.database.db;
    const days = { from: '2026-03-02', to: '2026-03-08' };
    const before = await figures(days, 'week', [t.siteId]);
    await db.delete(conversations).where(eq(conversations.id, withG));
    expect(await figures(days, 'week', [t.siteId])).toEqual(before);
    const live = await figures(days, 'week', [t.siteId], false);
    expect(live.activity[0].messages_free).toBe(before.activity[0].messages_free - 1);
  });
});
