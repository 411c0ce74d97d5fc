import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, creditPackages, landerVisits, messages, orderRefunds, orders, pageBounces, payments, profiles, sessions, users } from '../db/schema.ts';
import { addOtherSite } from '../../tests/helpers/other-site.ts';
import { createStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

/** An instant of March 2026: `day` of the month at `hour` UTC. */
const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 2, day, hour));
const PERIOD = { from: '2026-03-01', to: '2026-03-10' };
const zero = {
  visits: 0, signups: 0, activations: 0, first_purchases: 0, messages_paid: 0, messages_free: 0, messages_to_fictional: 0, gifts: 0, gifts_to_fictional: 0, active_members: 0, page_bounces: 0,
};

describe.each(DATABASE_KINDS)('the reports dashboard on %s', (kind) => {
  let t: TestApp;
  let otherSite: number;
  let credits: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const db = t.database.db;
    let elsewhere: number;
    ({ siteId: otherSite, userId: elsewhere } = await addOtherSite(db));
    const [pack] = await db.select().from(creditPackages).limit(1);
    credits = pack.credits;
    const member = async (n: string, country: string, signupDate: Date, values: { activatedAt?: Date; fictional?: boolean; siteId?: number } = {}) => {
      const [row] = await db.insert(users).values({ siteId: values.siteId ?? t.siteId, email: `${n}-${kind}@example.org`, passwordHash: 'x', signupDate, activatedAt: values.activatedAt }).returning();
      await db.insert(profiles).values({ userId: row.id, name: n, gender: 'female', birthDate: '1990-01-01', country, fictional: values.fictional ?? false });
      return row.id;
    };
    // Three members of the site in the period (one activated the same day, one two days later), a fictional profile from before it, one elsewhere.
    const a1 = await member('a1', 'NL', at(2, 9), { activatedAt: at(2, 10) });
    const a2 = await member('a2', 'GB', at(2, 11));
    const a3 = await member('a3', 'NL', at(3), { activatedAt: at(4) });
    const f = await member('f', 'NL', new Date(Date.UTC(2025, 5, 1)), { fictional: true });
    await member('b1', 'DE', at(2), { siteId: otherSite });

    const order = (id: string, userId: number, amountCents: number, currency: string, paymentmethod: string, completedAt: Date | null) => ({
      id: `${id}-${kind}`, userId, packageId: pack.id, credits: pack.credits, amountCents, currency, paymentmethod, idempotencyKey: id,
      status: completedAt ? 'completed' as const : 'failed' as const, createdAt: completedAt ?? at(4), completedAt,
    });
    await db.insert(orders).values([
      order('o1', a1, 1000, 'EUR', 'ideal', at(2)),
      order('o2', a1, 2000, 'EUR', 'creditcard', at(3)),
      order('o3', a2, 1500, 'GBP', 'creditcard', at(3)),
      order('o4', a3, 1000, 'EUR', 'ideal', null),
      order('o5', a3, 1000, 'EUR', 'ideal', at(4)),
      order('o6', elsewhere, 999, 'EUR', 'ideal', at(2)),
    ]);
    await db.insert(orderRefunds).values({ orderId: `o3-${kind}`, amountCents: 500, creditsTaken: 0, reason: 'Goodwill', idempotencyKey: 'r1', createdAt: at(4) });
    await db.insert(payments).values({ orderId: `o5-${kind}`, provider: 'test', providerRef: `p5-${kind}`, status: 'charged_back', updatedAt: at(5) });

    const [withF] = await db.insert(conversations).values({ userLow: Math.min(a1, f), userHigh: Math.max(a1, f) }).returning();
    const [withA2] = await db.insert(conversations).values({ userLow: Math.min(a1, a2), userHigh: Math.max(a1, a2) }).returning();
    const message = (conversationId: number, senderId: number, createdAt: Date, creditsSpent: number, kind: 'text' | 'gift' = 'text') => ({ conversationId, senderId, createdAt, creditsSpent, kind, body: 'Hi' });
    await db.insert(messages).values([
      message(withF.id, a1, at(2), 10), message(withF.id, a1, at(2, 13), 0),
      message(withA2.id, a2, at(3), 0), message(withF.id, f, at(3), 0), message(withF.id, a1, at(3, 14), 20, 'gift'),
      message(withA2.id, a2, at(4), 10),
    ]);
    await db.insert(sessions).values({ id: `s-${kind}`, userId: a3, siteId: t.siteId, createdAt: at(4), expiresAt: at(30) });
    await db.insert(pageBounces).values([
      { siteId: t.siteId, path: '/landers/video', seconds: 3, createdAt: at(2) }, { siteId: t.siteId, path: '/', seconds: 1, createdAt: at(2, 15) },
      { siteId: t.siteId, path: '/', seconds: 2, createdAt: at(5) }, { siteId: otherSite, path: '/', seconds: 2, createdAt: at(2) },
    ]);
    // Visits of two landers on the 2nd and one on the 3rd; days just outside the period and another site's count nowhere here.
    await db.insert(landerVisits).values([
      { siteId: t.siteId, lander: 'gallery', day: '2026-03-02', visits: 3 }, { siteId: t.siteId, lander: 'video', day: '2026-03-02', visits: 2 },
      { siteId: t.siteId, lander: 'gallery', day: '2026-03-03', visits: 1 }, { siteId: t.siteId, lander: 'gallery', day: '2026-02-28', visits: 7 },
      { siteId: t.siteId, lander: 'gallery', day: '2026-03-11', visits: 5 }, { siteId: otherSite, lander: 'gallery', day: '2026-03-02', visits: 4 },
    ]);
  });
  afterAll(() => t.close());

  const money = (key: string, currency: string, orders: number, cents: number) => ({ key, currency, orders, cents });

  it('counts every figure of the site per day', async () => {
    const finance = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const report = await t.services.console.dashboard(finance.actor, { ...PERIOD, site: t.siteId });
    expect(report.activity.map((row) => row.bucket)).toEqual(Array.from({ length: 10 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`));
    expect(report.activity[0]).toEqual({ bucket: '2026-03-01', ...zero });
    expect(report.activity[1]).toEqual({
      bucket: '2026-03-02', ...zero, visits: 5, signups: 2, activations: 1, first_purchases: 1, messages_paid: 1, messages_free: 1, messages_to_fictional: 2, active_members: 1, page_bounces: 2,
    });
    expect(report.activity[2]).toEqual({ bucket: '2026-03-03', ...zero, visits: 1, signups: 1, first_purchases: 1, messages_free: 2, gifts: 1, gifts_to_fictional: 1, active_members: 3 });
    expect(report.activity[3]).toEqual({ bucket: '2026-03-04', ...zero, activations: 1, first_purchases: 1, messages_paid: 1, active_members: 2 });
    expect(report.activity[4]).toEqual({ bucket: '2026-03-05', ...zero, page_bounces: 1 });
    expect(report.activity.slice(5).every((row) => Object.values({ ...row, bucket: 0 }).every((v) => v === 0))).toBe(true);
    expect(report.totals).toEqual({ visits: 6, signups: 3, activations: 2, first_purchases: 3, active_members: 4, page_bounces: 3 });
    expect(report.revenue).toEqual([
      { bucket: '2026-03-02', currency: 'EUR', orders: 1, cents: 1000 }, { bucket: '2026-03-03', currency: 'EUR', orders: 1, cents: 2000 },
      { bucket: '2026-03-03', currency: 'GBP', orders: 1, cents: 1500 }, { bucket: '2026-03-04', currency: 'EUR', orders: 1, cents: 1000 },
    ]);
    expect(report.by_method).toEqual([money('creditcard', 'EUR', 1, 2000), money('creditcard', 'GBP', 1, 1500), money('ideal', 'EUR', 2, 2000)]);
    expect(report.by_country).toEqual([money('GB', 'GBP', 1, 1500), money('NL', 'EUR', 3, 4000)]);
    expect(report.by_package).toEqual([money(String(credits), 'EUR', 3, 4000), money(String(credits), 'GBP', 1, 1500)]);
    const [site] = (await t.services.console.sites(finance.actor));
    expect(report.by_site).toEqual([money(site.name, 'EUR', 3, 4000), money(site.name, 'GBP', 1, 1500)]);
    expect(report.refunds).toEqual([{ bucket: '2026-03-04', currency: 'GBP', orders: 1, cents: 500 }]);
    expect(report.chargebacks).toEqual([{ bucket: '2026-03-05', currency: 'EUR', orders: 1, cents: 1000 }]);
  });

  it('groups by week (from Monday) and by month', async () => {
    const finance = await createStaff(t, { roles: ['finance'] });
    const weeks = await t.services.console.dashboard(finance.actor, { ...PERIOD, bucket: 'week', site: t.siteId });
    expect(weeks.activity).toEqual([
      { bucket: '2026-02-23', ...zero },
      { bucket: '2026-03-02', visits: 6, signups: 3, activations: 2, first_purchases: 3, messages_paid: 2, messages_free: 3, messages_to_fictional: 2, gifts: 1, gifts_to_fictional: 1, active_members: 4, page_bounces: 3 },
      { bucket: '2026-03-09', ...zero },
    ]);
    expect(weeks.revenue).toEqual([{ bucket: '2026-03-02', currency: 'EUR', orders: 3, cents: 4000 }, { bucket: '2026-03-02', currency: 'GBP', orders: 1, cents: 1500 }]);
    const months = await t.services.console.dashboard(finance.actor, { ...PERIOD, bucket: 'month' });
    expect(months.activity.map((row) => [row.bucket, row.visits, row.signups, row.page_bounces])).toEqual([['2026-03-01', 10, 4, 4]]);
    expect(months.by_method).toEqual([money('creditcard', 'EUR', 1, 2000), money('creditcard', 'GBP', 1, 1500), money('ideal', 'EUR', 3, 2999)]);
    expect(months.by_site.map((row) => row.key)).toContain('Ander');
  });

  it('refuses other roles and sites outside the staff member\'s, and bad periods', async () => {
    const moderator = await createStaff(t, { roles: ['moderator', 'support'] });
    await expect(t.services.console.dashboard(moderator.actor, PERIOD)).rejects.toMatchObject({ status: 403 });
    const elsewhere = await createStaff(t, { roles: ['finance'], siteIds: [otherSite] });
    await expect(t.services.console.dashboard(elsewhere.actor, { ...PERIOD, site: t.siteId })).rejects.toMatchObject({ status: 403 });
    const own = await t.services.console.dashboard(elsewhere.actor, { ...PERIOD, bucket: 'month' });
    expect(own.totals.signups).toBe(1);
    expect(own.by_method).toEqual([money('ideal', 'EUR', 1, 999)]);
    const admin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
    expect((await t.services.console.dashboard(admin.actor, { ...PERIOD, site: t.siteId })).totals.signups).toBe(3);
    for (const period of [{ from: '2026-03-02', to: '2026-03-01' }, { from: '2024-01-01', to: '2026-01-01' }]) {
      await expect(t.services.console.dashboard(admin.actor, period)).rejects.toMatchObject({ status: 400, code: 'invalid_period' });
    }
    expect((await t.services.console.dashboard(admin.actor, { from: '2024-01-01', to: '2026-01-01', bucket: 'month' })).activity).toHaveLength(25);
  });

  it('answers the API in JSON and each table as CSV, and bad input with 4xx', async () => {
    const finance = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const query = `from=${PERIOD.from}&to=${PERIOD.to}&site=${t.siteId}&bucket=week`;
    const json = await t.app.request(`/api/reports-dashboard.php?${query}`, { headers: finance.bearer });
    expect(json.status).toBe(200);
    expect((await json.json()).totals.first_purchases).toBe(3);
    const csv = await t.app.request(`/api/reports-dashboard.csv?${query}&table=by_method`, { headers: finance.bearer });
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="by_method-${t.siteId}-2026-03-01-2026-03-10-week.csv"`);
    expect((await csv.text()).split('\r\n').filter(Boolean)).toEqual(['key,currency,orders,cents', 'creditcard,EUR,1,2000', 'creditcard,GBP,1,1500', 'ideal,EUR,2,2000']);
    const activity = (await (await t.app.request(`/api/reports-dashboard.csv?${query}&table=activity`, { headers: finance.bearer })).text()).split('\r\n');
    expect(activity[0]).toMatch(/^bucket,visits,signups,/);
    expect(activity[2]).toMatch(/^2026-03-02,6,3,/);
    const empty = await t.app.request(`/api/reports-dashboard.csv?${query}&table=chargebacks&from=2026-03-09`, { headers: finance.bearer });
    expect((await empty.text()).split('\r\n')[0]).toBe('bucket,currency,orders,cents');
    for (const bad of ['from=2026-13-01', 'site=abc', 'bucket=year', `site=${otherSite}`, 'from=2020-01-01&to=2026-01-01', 'from=2026-03-01&table=nope']) {
      const url = bad.includes('table') ? `/api/reports-dashboard.csv?${bad}` : `/api/reports-dashboard.php?${bad}`;
      const refused = await t.app.request(url, { headers: finance.bearer });
      expect(refused.status, bad).toBeGreaterThanOrEqual(400);
      expect(refused.status, bad).toBeLessThan(500);
      expect(await refused.json(), bad).toMatchObject({ error: { code: expect.any(String) } });
    }
    expect((await t.app.request(`/api/reports-dashboard.php?${query}`)).status).toBe(401);
  });
});
