import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/** The member support and flags API over HTTP: staff tokens and sessions, roles, sites, bad input; answers checked against their contracts. */
describe('member support and flags over HTTP', () => {
  let t: TestApp;
  let agent: TestStaff;
  let moderator: TestStaff;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0, freeMessages: 5 });
    agent = await createStaff(t, { roles: ['support'], siteIds: [t.siteId] });
    moderator = await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId] });
  });
  afterAll(() => t.close());

  it('support finds and opens a member, adjusts credits once per key and signs them out, with a token or a console session', async () => {
    const m = await signUp(t, { name: 'Supported' });
    const api = t.client({ headers: agent.bearer });
    const found = await api.get(`/api/support-members.php?q=${encodeURIComponent(m.user.email)}`);
    expect(found.status).toBe(200);
    expect(found.body.members).toEqual([expect.objectContaining({ id: m.user.id, email: m.user.email, name: 'Supported', site_id: t.siteId })]);
    expect(found.body.has_more).toBe(false);
    expect((await api.get(`/api/support-members.php?q=${encodeURIComponent(m.user.email)}&page=2&order=oldest`)).body).toEqual({ members: [], has_more: false });
    expect((await api.get('/api/support-members.php?q=a&page=0')).status).toBe(400);
    expect((await api.get('/api/support-members.php?q=a&order=random')).status).toBe(400);
    const reporter = await signUp(t, { name: 'Reporter' });
    expect((await reporter.client.post('/api/report.php', { profile_id: m.user.id, kind: 'profile', reason: 'fake' })).status).toBe(201);
    const opened = await t.client({ headers: await agent.cookie() }).get(`/api/support-member.php?id=${m.user.id}`);
    expect(opened.body.reports).toEqual({ by: [], about: [expect.objectContaining({ other_id: reporter.user.id, kind: 'profile', reason: 'fake', status: 'open' })] });
    expect(opened.status).toBe(200);
    expect(opened.body.account).toMatchObject({ id: m.user.id, paid_user: false });

    const before = (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, m.user.id)))[0].c;
    const adjust = () => api.post('/api/support-credits.php', { member_id: m.user.id, credits: 7, reason: 'Goodwill' }, { 'idempotency-key': 'support-http-adjust-1' });
    expect((await adjust()).body).toEqual({ credits: 7, balance: before + 7 });
    expect((await adjust()).body).toEqual({ credits: 7, balance: before + 7 });
    expect((await api.post('/api/support-credits.php', { member_id: m.user.id, credits: 7, reason: 'Goodwill' })).status).toBe(400);
    expect((await api.post('/api/support-sessions-end.php', { member_id: m.user.id })).body).toEqual({ ended: 1 });
    expect((await api.post('/api/support-password-reset.php', { member_id: m.user.id })).body).toEqual({ ok: true });
    expect((await api.post('/api/support-activation.php', { member_id: m.user.id })).status).toBe(409);
  });

  it('refuses visitors, members, moderators and staff of other sites, and bad input, changing nothing', async () => {
    const m = await signUp(t, { name: 'Guarded' });
    const balance = async () => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, m.user.id)))[0].c;
    const start = await balance();
    const body = { member_id: m.user.id, credits: 50, reason: 'Not allowed' };
    const elsewhere = await createStaff(t, { roles: ['support'], siteIds: [t.siteId + 1000] });
    const cases: [string, ReturnType<TestApp['client']>, number][] = [
      ['visitor', t.client(), 401], ['member', m.client, 401],
      ['moderator', t.client({ headers: moderator.bearer }), 403], ['other site', t.client({ headers: elsewhere.bearer }), 403],
    ];
    for (const [who, client, status] of cases) {
      expect((await client.post('/api/support-credits.php', body, { 'idempotency-key': `refused-${who.replace(' ', '-')}-key` })).status, who).toBe(status);
      expect((await client.get(`/api/support-member.php?id=${m.user.id}`)).status, who).toBe(status);
    }
    const api = t.client({ headers: agent.bearer });
    for (const bad of [{ credits: 0 }, { credits: '5' }, { credits: 10_001 }, { reason: '' }, { member_id: 'x' }, { member_id: 99_999_999_999 }, { extra: 1 }]) {
      const res = await api.post('/api/support-credits.php', { ...body, ...bad }, { 'idempotency-key': 'bad-input-adjust-key' });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBeTruthy();
    }
    expect((await api.get('/api/support-member.php?id=2000000000')).status).toBe(404);
    expect((await api.get(`/api/support-members.php?q=${'x'.repeat(201)}`)).status).toBe(400);
    expect(await balance()).toBe(start);
  });

  it('moderators read the flags queue and a flag\'s evidence and close it; support staff may not', async () => {
    const [sender, peer] = [await signUp(t, { name: 'Flagged' }), await signUp(t, { name: 'Peer' })];
    expect((await sender.client.post('/api/messages.php', { profile_id: peer.user.id, text: 'add me on telegram' }, { 'idempotency-key': 'flag-http-1-key' })).status).toBe(201);
    await t.services.events.drain();
    const api = t.client({ headers: moderator.bearer });
    const queue = await api.get('/api/member-flags.php');
    const flag = queue.body.flags.find((f: { member_id: number }) => f.member_id === sender.user.id);
    expect(flag).toMatchObject({ kind: 'off_site_contact', hits: 1 });
    expect(queue.body.counts.off_site_contact).toBeGreaterThanOrEqual(1);
    expect((await api.get(`/api/member-flag.php?id=${flag.id}`)).body.evidence[0]).toMatchObject({ matched: ['telegram'], recipient_id: peer.user.id });
    expect((await t.client({ headers: agent.bearer }).get('/api/member-flags.php')).status).toBe(403);
    expect((await api.post('/api/member-flag-resolve.php', { id: flag.id })).body).toEqual({ ok: true });
    expect((await api.post('/api/member-flag-resolve.php', { id: flag.id })).status).toBe(409);
  });
});
