import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, memberReports, moderationDecisions } from '../db/schema.ts';
import { noticeSchema } from '#common/notices.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/** The queues of reports, notices and appeals over HTTP: staff tokens and sessions, roles, sites, claims, bad input. */
describe('moderation queues over HTTP', () => {
  let t: TestApp;
  let moderator: TestStaff;
  let second: TestStaff;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    moderator = await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId] });
    second = await createStaff(t, { roles: ['moderator'] });
  });
  afterAll(() => t.close());

  const reportAbout = async () => {
    const [reporter, reported] = [await signUp(t), await signUp(t, { name: 'Reported' })];
    const made = await reporter.client.post('/api/report.php', { profile_id: reported.user.id, kind: 'profile', reason: 'spam', text: 'Adverts in the about text' });
    expect(made.status).toBe(201);
    return { reported, id: made.body.report.id as number };
  };

  it('a moderator reads the report queue, claims and decides a report; the member gets a statement and may appeal it to another moderator', async () => {
    const { reported, id } = await reportAbout();
    const api = t.client({ headers: moderator.bearer });
    const queue = await api.get('/api/moderation-reports.php');
    expect(queue.status).toBe(200);
    expect(queue.body.items.find((i: { id: number }) => i.id === id)).toMatchObject({ reported_id: reported.user.id, reported_name: 'Reported', kind: 'profile', reason: 'spam', claimed_by: null });

    const claimed = await t.client({ headers: await moderator.cookie() }).post('/api/moderation-report-claim.php', { id });
    expect(claimed.status).toBe(200);
    expect(Date.parse(claimed.body.claimed_until) - t.clock().getTime()).toBe(10 * 60_000);
    // Another moderator sees who holds it and cannot take it over.
    const other = t.client({ headers: second.bearer });
    expect((await other.get('/api/moderation-reports.php')).body.items.find((i: { id: number }) => i.id === id)).toMatchObject({ claimed_by: moderator.actor.staffId });
    expect((await other.post('/api/moderation-report-claim.php', { id })).body.error.code).toBe('item_claimed');
    expect((await other.post('/api/moderation-report-decide.php', { id, action: 'dismiss', ground: 'terms_general' })).body.error.code).toBe('report_not_claimed');

    const decided = await api.post('/api/moderation-report-decide.php', { id, action: 'remove_about', ground: 'terms_spam', facts: 'Adverts for another site.' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ status: 'actioned', decision_id: expect.any(Number) });
    const statement = await reported.client.get(`/api/statement.php?id=${decided.body.decision_id}`);
    expect(statement.status).toBe(200);
    expect(statement.body.statement).toMatchObject({ restriction: 'text_removed', ground: 'terms_spam' });
    expect((await api.post('/api/moderation-report-decide.php', { id, action: 'dismiss', ground: 'terms_general' })).status).toBe(409);

    const appealed = await reported.client.post('/api/appeal.php', { id: decided.body.decision_id, text: 'The link was to my own blog.' });
    expect(appealed.status, JSON.stringify(appealed.body)).toBeLessThan(300);
    const [decision] = await t.database.db.select().from(moderationDecisions).where(eq(moderationDecisions.id, decided.body.decision_id));
    expect(decision.staffId).toBe(moderator.actor.staffId);
    // The deciding moderator does not see it; the second one claims and confirms it.
    expect((await api.get('/api/moderation-appeals.php')).body.items.map((i: { decision_id: number }) => i.decision_id)).not.toContain(decision.id);
    const appeal = (await other.get('/api/moderation-appeals.php')).body.items.find((i: { decision_id: number }) => i.decision_id === decision.id);
    expect(appeal).toMatchObject({ member_id: reported.user.id, restriction: 'text_removed', text: 'The link was to my own blog.' });
    expect((await api.post('/api/moderation-appeal-claim.php', { id: appeal.id })).body.error.code).toBe('appeal_same_moderator');
    expect((await other.post('/api/moderation-appeal-claim.php', { id: appeal.id })).status).toBe(200);
    expect((await other.post('/api/moderation-appeal-decide.php', { id: appeal.id, outcome: 'confirmed' })).body).toEqual({ outcome: 'confirmed' });
  });

  it('a moderator claims and decides a DSA notice', async () => {
    const target = await signUp(t);
    // As the /complaints page hands it over.
    await t.services.notices.submit({ siteId: t.siteId, userId: null, ip: '198.51.100.20', lang: 'en' }, noticeSchema.parse({
      kind: 'profile', content: String(target.user.id), reason: 'fake_or_scam', explanation: 'This profile copies photos of a celebrity.',
      name: 'Notifier', email: 'notifier@example.org', bona_fide: true,
    }));
    const api = t.client({ headers: moderator.bearer });
    const notice = (await api.get('/api/moderation-notices.php')).body.items.find((n: { content: string }) => n.content === String(target.user.id));
    expect(notice).toMatchObject({ kind: 'profile', reason: 'fake_or_scam', claimed_by: null });
    expect((await api.post('/api/moderation-notice-claim.php', { reference: notice.reference })).status).toBe(200);
    const decided = await api.post('/api/moderation-notice-decide.php', { reference: notice.reference, action: 'dismiss', ground: 'terms_general', decision: 'The photos are the member\'s own.' });
    expect(decided.body).toEqual({ status: 'no_action', decision_id: null });
  });

  it('refuses visitors, members, support staff and moderators of other sites, and bad input, changing nothing', async () => {
    const { reported, id } = await reportAbout();
    const support = await createStaff(t, { roles: ['support'] });
    const elsewhere = await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId + 1000] });
    const audits = async () => (await t.database.db.select().from(auditLog)).length;
    const before = await audits();
    const cases: [string, ReturnType<TestApp['client']>, number][] = [
      ['visitor', t.client(), 401], ['member', reported.client, 401],
      ['support', t.client({ headers: support.bearer }), 403], ['other site', t.client({ headers: elsewhere.bearer }), 403],
    ];
    for (const [who, client, status] of cases) {
      expect((await client.post('/api/moderation-report-claim.php', { id })).status, who).toBe(status);
      expect((await client.post('/api/moderation-report-decide.php', { id, action: 'dismiss', ground: 'terms_general' })).status, who).toBe(status);
      if (who !== 'other site') expect((await client.get('/api/moderation-reports.php')).status, who).toBe(status);
    }
    // Moderators of another site read an empty queue, not this site's.
    expect((await t.client({ headers: elsewhere.bearer }).get('/api/moderation-reports.php')).body.items.map((i: { id: number }) => i.id)).not.toContain(id);

    const api = t.client({ headers: moderator.bearer });
    expect((await api.post('/api/moderation-report-claim.php', { id })).status).toBe(200);
    const bad: [string, unknown][] = [
      ['/api/moderation-report-claim.php', { id: 'x' }], ['/api/moderation-report-claim.php', { id: 99_999_999_999 }], ['/api/moderation-report-claim.php', {}],
      ['/api/moderation-report-decide.php', { id, action: 'erase', ground: 'terms_general' }],
      ['/api/moderation-report-decide.php', { id, action: 'dismiss', ground: 'whim' }],
      ['/api/moderation-report-decide.php', { id, action: 'dismiss', ground: 'terms_general', extra: 1 }],
      ['/api/moderation-report-decide.php', { id, action: 'dismiss', ground: 'terms_general', facts: 'x'.repeat(3001) }],
      // A profile report cannot hide a message.
      ['/api/moderation-report-decide.php', { id, action: 'hide_message', ground: 'terms_general' }],
      ['/api/moderation-notice-claim.php', { reference: 'not-a-reference' }],
      ['/api/moderation-notice-decide.php', { reference: 'AAAA-AAAA-AAAA', action: 'dismiss', ground: 'terms_general', decision: '' }],
      ['/api/moderation-appeal-decide.php', { id: 1, outcome: 'maybe' }],
    ];
    for (const [path, body] of bad) {
      const res = await api.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.code).toBeTruthy();
    }
    expect((await api.post('/api/moderation-report-claim.php', { id: 2_000_000_000 })).status).toBe(404);
    expect((await api.post('/api/moderation-notice-claim.php', { reference: 'AAAA-AAAA-AAAA' })).status).toBe(404);
    const [row] = await t.database.db.select().from(memberReports).where(eq(memberReports.id, id));
    expect(row.status).toBe('open');
    // Only the one claim above was written.
    expect(await audits()).toBe(before + 1);
  });
});
