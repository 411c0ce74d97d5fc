import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { LANDER_COOKIE } from '#common/constants.ts';
import { creditPackages, landerVisits, orders, profiles, reportLanderDays, sitePageTokens, users } from '../db/schema.ts';
import { addOtherSite } from '../../tests/helpers/other-site.ts';
import { createTestApp, DATABASE_KINDS, TestClient, type TestApp } from '../../tests/helpers/test-app.ts';
import { dashboardCsv, dashboardFigures, dashboardPeriod } from './dashboard.ts';
import { buildReportSummaries } from './report-summaries.ts';

/** An instant of 2026 (UTC): `month`/`day` at `hour`. */
const at = (month: number, day: number, hour = 12) => new Date(Date.UTC(2026, month - 1, day, hour));
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

describe.each(DATABASE_KINDS)('conversion per lander on %s', (kind) => {
  let t: TestApp;
  let otherSite: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 6, pages: true });
    const db = t.database.db;
    ({ siteId: otherSite } = await addOtherSite(db));
    await db.insert(sitePageTokens).values({ siteId: t.siteId, token: 'spring-video', lander: 'video', tracking: { network: 'flyer' } });
  });
  afterAll(() => t.close());

  const visitor = () => t.client({ headers: { 'user-agent': BROWSER } });
  let n = 0;
  const signUp = async (client: TestClient) => {
    const email = `lander${++n}.${kind}@example.org`;
    const res = await client.post('/api/signup.php', {
      email, name: 'Newbie', password: 'correct horse battery', date_of_birth: '1991-02-03', gender: 'male', country: 'NL',
    });
    expect(res.status).toBe(201);
    const [row] = await t.database.db.select({ id: users.id, lander: users.lander, network: users.network }).from(users).where(sql`lower(${users.email}) = ${email}`);
    return row;
  };
  /** Demo members a visitor may meet on their landing pages. */
  const demoMembers = async (count: number) => (await t.database.db.select({ id: users.id }).from(users)
    .where(sql`${users.email} like 'member%@demo.amora.invalid'`).orderBy(asc(users.id)).limit(count)).map((row) => row.id);

  describe('the dashboard', () => {
    beforeAll(async () => {
      const db = t.database.db;
      const [pack] = await db.select().from(creditPackages).orderBy(asc(creditPackages.id)).limit(1);
      const member = async (n: string, lander: string | null, signupDate: Date, values: { activatedAt?: Date; siteId?: number } = {}) => {
        const [row] = await db.insert(users).values({
          siteId: values.siteId ?? t.siteId, email: `${n}-${kind}@conversion.example.org`, passwordHash: 'x', signupDate, activatedAt: values.activatedAt, lander,
        }).returning();
        await db.insert(profiles).values({ userId: row.id, name: n, gender: 'female', birthDate: '1990-01-01', country: 'NL' });
        return row.id;
      };
      const g1 = await member('g1', 'gallery', at(3, 2), { activatedAt: at(3, 2, 13) });
      await member('g2', 'gallery', at(3, 3));
      // Today (8 March, the clock's day): counted live.
      await member('g3', 'gallery', at(3, 8, 0), { activatedAt: at(3, 8, 0) });
      const v1 = await member('v1', 'video', at(3, 4), { activatedAt: at(3, 5) });
      const n1 = await member('n1', null, at(3, 4), { activatedAt: at(3, 4) });
      // A member of last year from the video lander whose first purchase falls in the period.
      const old = await member('old', 'video', new Date(Date.UTC(2025, 5, 1)));
      await member('b1', 'gallery', at(3, 2), { siteId: otherSite });
      const order = (id: string, userId: number, completedAt: Date) => ({
        id: `${id}-${kind}-conv`, userId, packageId: pack.id, credits: 50, amountCents: 1000, currency: 'EUR', paymentmethod: 'ideal',
        idempotencyKey: `${id}-conv`, status: 'completed' as const, createdAt: completedAt, completedAt,
      });
      // g1's second order is no first purchase; n1's first purchase has no lander.
      await db.insert(orders).values([order('c1', g1, at(3, 3)), order('c2', g1, at(3, 5)), order('c3', v1, at(3, 6)), order('c4', n1, at(3, 4)), order('c5', old, at(3, 5))]);
      await db.insert(landerVisits).values([
        { siteId: t.siteId, lander: 'gallery', day: '2026-03-02', visits: 10 }, { siteId: t.siteId, lander: 'gallery', day: '2026-03-08', visits: 5 },
        { siteId: t.siteId, lander: 'video', day: '2026-03-04', visits: 4 }, { siteId: t.siteId, lander: 'tinderswipe', day: '2026-03-03', visits: 2 },
        // Outside the period, and another site's.
        { siteId: t.siteId, lander: 'video', day: '2026-02-20', visits: 50 }, { siteId: otherSite, lander: 'gallery', day: '2026-03-02', visits: 7 },
      ]);
      t.clock.set('2026-03-08T00:30:00Z');
      expect((await buildReportSummaries(db, t.clock()))?.to).toBe('2026-03-07');
    });

    const figures = async (siteIds: number[] | null, summaries = true, days = { from: '2026-03-01', to: '2026-03-08' }) =>
      dashboardFigures(t.database.db, dashboardPeriod({ ...days, bucket: 'week' }, t.clock()), 'week', siteIds, siteIds?.length === 1 ? siteIds[0] : null, { summaries });

    it('counts visits, sign-ups, activations and first purchases per lander, from the summaries and today live', async () => {
      // The summaries hold the closed days' lander figures; members without a lander are in none of them.
      const closed = await t.database.db.select().from(reportLanderDays).where(eq(reportLanderDays.siteId, t.siteId)).orderBy(asc(reportLanderDays.day), asc(reportLanderDays.lander));
      expect(closed.map((r) => [r.day, r.lander, r.signups, r.activations, r.firstPurchases])).toEqual([
        ['2025-06-01', 'video', 1, 0, 0], ['2026-03-02', 'gallery', 1, 1, 0], ['2026-03-03', 'gallery', 1, 0, 1], ['2026-03-04', 'video', 1, 0, 0], ['2026-03-05', 'video', 0, 1, 1], ['2026-03-06', 'video', 0, 0, 1],
      ]);
      const site = await figures([t.siteId]);
      expect(site.by_lander).toEqual([
        { lander: 'gallery', visits: 15, signups: 3, activations: 2, first_purchases: 1 },
        { lander: 'tinderswipe', visits: 2, signups: 0, activations: 0, first_purchases: 0 },
        { lander: 'video', visits: 4, signups: 1, activations: 1, first_purchases: 2 },
      ]);
      // n1 signed up without a lander: on no lander's row, though in the totals.
      expect(site.totals.visits).toBe(21);
      expect(site.totals.signups).toBeGreaterThan(4);
      expect(await figures([otherSite])).toMatchObject({ by_lander: [{ lander: 'gallery', visits: 7, signups: 1, activations: 0, first_purchases: 0 }] });
      expect((await figures(null)).by_lander[0]).toEqual({ lander: 'gallery', visits: 22, signups: 4, activations: 2, first_purchases: 1 });
      // A period with nothing on any lander has no rows.
      expect((await figures([t.siteId], true, { from: '2026-01-01', to: '2026-01-31' })).by_lander).toEqual([]);
      for (const sites of [[t.siteId], [otherSite], null]) expect(await figures(sites)).toEqual(await figures(sites, false));
    });

    it('writes the table as CSV with its conversion in percent', async () => {
      const lines = dashboardCsv(await figures([t.siteId]), 'by_lander').trimEnd().split('\r\n');
      expect(lines).toEqual([
        'lander,visits,signups,activations,first_purchases,signups_per_visit_percent,first_purchases_per_signup_percent',
        'gallery,15,3,2,1,20,33.3',
        'tinderswipe,2,0,0,0,0,',
        'video,4,1,1,2,25,200',
      ]);
    });
  });

  describe('a sign-up', () => {
    it('records the first lander its visitor opened, which later landers do not replace', async () => {
      const client = visitor();
      const first = await client.get('/landers/gallery/women');
      expect(first.status).toBe(200);
      expect(first.headers.getSetCookie().find((c) => c.startsWith(`${LANDER_COOKIE}=`))).toMatch(/^amora\.lander=gallery;.*Path=\/;.*HttpOnly/i);
      const later = await client.get('/landers/video');
      expect(later.headers.getSetCookie().some((c) => c.startsWith(`${LANDER_COOKIE}=`))).toBe(false);
      expect(await signUp(client)).toMatchObject({ lander: 'gallery', network: null });
    });

    it('records a member\'s landing page and the lander of a short path', async () => {
      const [id] = await demoMembers(1);
      const member = visitor();
      expect((await member.get(`/members/${id}/landing2/spring`)).status).toBe(200);
      expect((await signUp(member)).lander).toBe('member-landing2');

      const short = visitor();
      expect((await short.get('/spring-video')).status).toBe(302);
      expect(short.cookies.get(LANDER_COOKIE)).toBe('video');
      expect(await signUp(short)).toMatchObject({ lander: 'video', network: 'flyer' });
    });

    it('records no lander without one, and drops a lander name it does not know', async () => {
      expect((await signUp(visitor())).lander).toBeNull();
      // Pages other than landers set no lander.
      const home = visitor();
      await home.get('/api/settings.php?network=x');
      expect(home.cookies.has(LANDER_COOKIE)).toBe(false);
      for (const forged of ['nosuch', 'gallery.video', '', '%3Cscript%3E']) {
        const client = visitor();
        client.cookies.set(LANDER_COOKIE, forged);
        expect((await signUp(client)).lander).toBeNull();
      }
    });
  });

  describe('a member\'s landing pages', () => {
    const VISIT_COOKIE = 'amora.lv';
    const visitCookie = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith(`${VISIT_COOKIE}=`));
    const visitsOf = async (day: string) => (await t.database.db.select({ lander: landerVisits.lander, visits: landerVisits.visits }).from(landerVisits)
      .where(sql`${landerVisits.siteId} = ${t.siteId} and ${landerVisits.day} = ${day}`).orderBy(asc(landerVisits.lander))).map((r) => [r.lander, r.visits]);
    const figures = (summaries: boolean) => dashboardFigures(t.database.db, dashboardPeriod({ from: '2026-03-10', to: '2026-03-10', bucket: 'day' }, t.clock()), 'day', [t.siteId], t.siteId, { summaries });

    it('count their visits as the landers do, once per visitor and lander within the window, and convert them per lander', async () => {
      t.clock.set('2026-03-10T09:00:00Z');
      const [a, b] = await demoMembers(2);

      // A visitor is counted once per lander: again on the same page, or on another member's page of that lander, is no new visit.
      const first = visitor();
      const opened = await first.get(`/members/${a}/landing`);
      expect(opened.status).toBe(200);
      expect(visitCookie(opened)).toMatch(/^amora\.lv=member-landing;.*Max-Age=1800;.*Path=\/members;.*HttpOnly/i);
      expect(opened.headers.get('cache-control')).toBe('private, no-store');
      expect(visitCookie(await first.get(`/members/${a}/landing`))).toBeUndefined();
      expect(visitCookie(await first.get(`/members/${a}/landing2/spring`))).toMatch(/^amora\.lv=member-landing\.member-landing2;/);
      expect((await first.get(`/members/${b}/landing2`)).status).toBe(200);
      // A page opened in the browser (its .data answer) counts as its document does.
      const data = await first.get(`/members/${b}/landing3/spring.data`);
      expect(data.status).toBe(200);
      expect(visitCookie(data)).toMatch(/^amora\.lv=member-landing\.member-landing2\.member-landing3;/);

      // Another visitor counts; a bot, a malformed slug's or an unknown member's 404 and a signed-in member's redirect do not.
      const second = visitor();
      expect((await second.get(`/members/${b}/landing2`)).status).toBe(200);
      expect((await t.client({ headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } }).get(`/members/${a}/landing2`)).status).toBe(200);
      expect((await visitor().get(`/members/${a}/landing2/Not.A.Slug`)).status).toBe(404);
      expect((await visitor().get('/members/99999999/landing')).status).toBe(404);
      const member = visitor();
      await member.login();
      expect((await member.get(`/members/${a}/landing3`)).status).toBe(302);
      expect(await visitsOf('2026-03-10')).toEqual([['member-landing', 1], ['member-landing2', 2], ['member-landing3', 1]]);

      // Each visitor signs up on the first landing page they opened; the first is activated and buys.
      const signedUp = await signUp(first);
      expect(signedUp.lander).toBe('member-landing');
      expect((await signUp(second)).lander).toBe('member-landing2');
      const db = t.database.db;
      await db.update(users).set({ activatedAt: t.clock() }).where(eq(users.id, signedUp.id));
      const [pack] = await db.select().from(creditPackages).orderBy(asc(creditPackages.id)).limit(1);
      await db.insert(orders).values({
        id: `ml-${kind}-conv`, userId: signedUp.id, packageId: pack.id, credits: 50, amountCents: 1000, currency: 'EUR', paymentmethod: 'ideal',
        idempotencyKey: 'ml-conv', status: 'completed', createdAt: t.clock(), completedAt: t.clock(),
      });

      // Today's figures, counted live.
      const expected = [
        { lander: 'member-landing', visits: 1, signups: 1, activations: 1, first_purchases: 1 },
        { lander: 'member-landing2', visits: 2, signups: 1, activations: 0, first_purchases: 0 },
        { lander: 'member-landing3', visits: 1, signups: 0, activations: 0, first_purchases: 0 },
      ];
      const live = await figures(true);
      expect(live.by_lander).toEqual(expected);
      expect([live.totals.visits, live.totals.signups]).toEqual([4, 2]);
      expect(dashboardCsv(live, 'by_lander').trimEnd().split('\r\n').slice(1)).toEqual([
        'member-landing,1,1,1,1,100,100',
        'member-landing2,2,1,0,0,50,0',
        'member-landing3,1,0,0,0,0,',
      ]);

      // Once the day is closed, from the summaries: the same figures.
      t.clock.set('2026-03-11T00:30:00Z');
      expect((await buildReportSummaries(db, t.clock()))?.to).toBe('2026-03-10');
      const closed = await db.select().from(reportLanderDays).where(sql`${reportLanderDays.siteId} = ${t.siteId} and ${reportLanderDays.day} = '2026-03-10'`).orderBy(asc(reportLanderDays.lander));
      expect(closed.map((r) => [r.lander, r.signups, r.activations, r.firstPurchases])).toEqual([['member-landing', 1, 1, 1], ['member-landing2', 1, 0, 0]]);
      expect((await figures(true)).by_lander).toEqual(expected);
      expect(await figures(true)).toEqual(await figures(false));
    });
  });
});
