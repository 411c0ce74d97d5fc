import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appeals, memberReports, moderationDecisions, notices } from '../db/schema.ts';
import { addOtherSite } from '../../tests/helpers/other-site.ts';
import { createStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const HOUR = 3_600_000;
/** An instant of the test's period (2026), `hours` after the first of March. */
const at = (hours: number) => new Date(Date.UTC(2026, 2, 1) + hours * HOUR);
/** The last instant before the period: nothing then counts. */
const BEFORE = new Date(Date.UTC(2025, 11, 31, 23, 59, 59));
const PERIOD = { from: '2026-01-01', to: '2026-06-30' };

describe.each(DATABASE_KINDS)('the DSA transparency report on %s', (kind) => {
  let t: TestApp;
  let otherSite: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const db = t.database.db;
    let elsewhere: number;
    ({ siteId: otherSite, userId: elsewhere } = await addOtherSite(db));
    const reporter = (await signUp(t)).actor.userId;
    const reported = (await signUp(t)).actor.userId;

    // Notices: three in the period on this site (two decided, after 2 and 6 hours), one before it, one on the other site.
    const notice = (n: number, values: Partial<typeof notices.$inferInsert>) => ({
      siteId: t.siteId, reference: `T-${n}`, followToken: 'x', kind: 'profile' as const, contentRef: String(reported), reason: 'other' as const,
      reporterEmail: 'n@example.org', bonaFide: true, ...values,
    });
    const [removedNotice] = await db.insert(notices).values([
      notice(1, { reason: 'illegal', createdAt: at(0), status: 'removed', decidedAt: at(2) }),
      notice(2, { reason: 'illegal', createdAt: at(10), status: 'no_action', decidedAt: at(16) }),
      notice(3, { reason: 'minor', createdAt: at(20) }),
      notice(4, { reason: 'minor', createdAt: BEFORE, status: 'removed', decidedAt: BEFORE }),
      notice(5, { siteId: otherSite, reason: 'illegal', createdAt: at(1) }),
    ]).returning();

    // Member reports: two in the period (one actioned after 4 hours, one open), one before it.
    const [actionedReport] = await db.insert(memberReports).values([
      { siteId: t.siteId, reporterId: reporter, reportedId: reported, kind: 'profile', reason: 'scam', createdAt: at(0), status: 'actioned', decidedAt: at(4) },
      { siteId: t.siteId, reporterId: reporter, reportedId: reported, kind: 'photo', contentId: 9, reason: 'fake', createdAt: at(30) },
      { siteId: t.siteId, reporterId: reporter, reportedId: reported, kind: 'message', contentId: 9, reason: 'spam', createdAt: BEFORE },
    ]).returning();

    // Decisions: one on the notice, one on the report, one automated of the site's own, one reversed; one before, one elsewhere.
    const decision = (n: number, values: Partial<typeof moderationDecisions.$inferInsert>) => ({
      siteId: t.siteId, memberId: reported, token: `tok-${n}`, restriction: 'text_removed' as const, contentKind: 'about' as const, ground: 'terms_general', ...values,
    });
    const [, fromReport, , reversed] = await db.insert(moderationDecisions).values([
      decision(1, { noticeId: removedNotice.id, ground: 'law_illegal_content', restriction: 'photo_removed', contentKind: 'photo', createdAt: at(2) }),
      decision(2, { reportId: actionedReport.id, ground: 'terms_scam', restriction: 'banned', contentKind: 'account', createdAt: at(4) }),
      decision(3, { ground: 'terms_spam', restriction: 'message_hidden', contentKind: 'message', automated: true, createdAt: at(5) }),
      decision(4, { ground: 'terms_scam', restriction: 'suspended', contentKind: 'account', status: 'reversed', createdAt: at(6) }),
      decision(5, { createdAt: BEFORE }),
      decision(6, { siteId: otherSite, memberId: elsewhere, createdAt: at(1) }),
    ]).returning();

    // Appeals: one reversed after 24 hours, one confirmed after 48, one open.
    await db.insert(appeals).values([
      { decisionId: reversed.id, memberId: reported, text: 'Look again please', createdAt: at(7), status: 'decided', outcome: 'reversed', decidedAt: at(31) },
      { decisionId: fromReport.id, memberId: reported, text: 'Look again please', createdAt: at(8), status: 'decided', outcome: 'confirmed', decidedAt: at(56) },
    ]);
  });
  afterAll(() => t.close());

  const count = (rows: { key: string; count: number }[], key: string) => rows.find((r) => r.key === key)?.count;

  it('counts what the site received and decided in the period, and nothing before it or of another site', async () => {
    const admin = await createStaff(t, { roles: ['admin'] });
    const report = await t.services.console.transparencyReport(admin.actor, { ...PERIOD, site: t.siteId });
    expect(report.site_id).toBe(t.siteId);
    expect(report.notices).toMatchObject({ received: 3, decided: 2, removed: 1, no_action: 1, median_hours_to_decision: 4 });
    expect(count(report.notices.by_reason, 'illegal')).toBe(2);
    expect(count(report.notices.by_reason, 'minor')).toBe(1);
    expect(count(report.notices.by_reason, 'other')).toBe(0);
    expect(report.member_reports).toMatchObject({ received: 2, actioned: 1, dismissed: 0, median_hours_to_decision: 4 });
    expect(count(report.member_reports.by_reason, 'spam')).toBe(0);
    expect(report.decisions).toMatchObject({ total: 4, automated: 1, reversed: 1 });
    expect(report.decisions.by_ground.find((g) => g.key === 'terms_scam')).toEqual({ key: 'terms_scam', count: 2, automated: 0 });
    expect(report.decisions.by_ground.find((g) => g.key === 'terms_spam')).toEqual({ key: 'terms_spam', count: 1, automated: 1 });
    expect(report.decisions.by_restriction.map((r) => r.count)).toEqual([1, 0, 1, 1, 1]);
    expect(report.decisions.by_source).toEqual([{ key: 'notice', count: 1 }, { key: 'report', count: 1 }, { key: 'own_initiative', count: 2 }]);
    expect(report.appeals).toEqual({ received: 2, decided: 2, reversed: 1, confirmed: 1, median_hours_to_decision: 36 });
  });

  it('adds every site up for an admin of every site, and only their own sites for an admin of some', async () => {
    const everyWhere = await createStaff(t, { roles: ['admin'] });
    const all = await t.services.console.transparencyReport(everyWhere.actor, PERIOD);
    expect(all.site_id).toBeNull();
    expect(all.notices.received).toBe(4);
    expect(all.decisions.total).toBe(5);
    const theirs = await createStaff(t, { roles: ['admin'], siteIds: [otherSite] });
    const own = await t.services.console.transparencyReport(theirs.actor, PERIOD);
    expect([own.notices.received, own.decisions.total, own.appeals.received]).toEqual([1, 1, 0]);
    await expect(t.services.console.transparencyReport(theirs.actor, { ...PERIOD, site: t.siteId })).rejects.toMatchObject({ status: 403 });
    expect((await t.services.console.sites(theirs.actor)).map((site) => site.name)).toEqual(['Ander']);
    expect((await t.services.console.sites(everyWhere.actor)).map((site) => site.id)).toEqual(expect.arrayContaining([t.siteId, otherSite]));
  });

  it('takes this year until today by default, and refuses a period that ends before it starts or spans more than five years', async () => {
    const admin = await createStaff(t, { roles: ['admin'] });
    const today = t.services.clock().toISOString().slice(0, 10);
    const report = await t.services.console.transparencyReport(admin.actor, {});
    expect([report.from, report.to]).toEqual([`${today.slice(0, 4)}-01-01`, today]);
    for (const period of [{ from: '2026-02-01', to: '2026-01-31' }, { from: '2019-01-01', to: '2026-01-01' }]) {
      await expect(t.services.console.transparencyReport(admin.actor, period)).rejects.toMatchObject({ status: 400, code: 'invalid_period' });
    }
  });

  it('answers the API with the same figures, and as CSV one figure per row', async () => {
    const admin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
    const query = `from=${PERIOD.from}&to=${PERIOD.to}&site=${t.siteId}`;
    const json = await t.app.request(`/api/transparency-report.php?${query}`, { headers: admin.bearer });
    expect(json.status).toBe(200);
    expect((await json.json()).appeals.median_hours_to_decision).toBe(36);
    const csv = await t.app.request(`/api/transparency-report.csv?${query}`, { headers: admin.bearer });
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="transparency-${t.siteId}-2026-01-01-2026-06-30.csv"`);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe('section,item,count');
    expect(lines).toContain('notices_by_reason,illegal,2');
    expect(lines).toContain('automated_decisions_by_ground,terms_spam,1');
    expect(lines).toContain('appeals,median_hours_to_decision,36');
    for (const bad of ['from=2026-13-01', 'site=abc', 'site=99999999999', `from=2026-02-01&to=2026-01-01&site=${t.siteId}`]) {
      const refused = await t.app.request(`/api/transparency-report.php?${bad}`, { headers: admin.bearer });
      expect(refused.status, bad).toBe(400);
      expect(await refused.json(), bad).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect((await t.app.request(`/api/transparency-report.php?${query}`)).status).toBe(401);
  });
});
