import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens, auditLog, creditLedger, payments, profiles, sessions, sites, users } from '../db/schema.ts';
import type { StaffActor } from '../actor.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('member support on %s', (kind) => {
  let t: TestApp;
  let agent: StaffActor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, freeMessages: 5 });
    const staff = await t.services.staff.create({ kind: 'system', job: 'test' }, { email: `support-${kind}@example.org`, name: 'Agent', roles: ['support'] });
    agent = { kind: 'staff', staffId: staff.id, roles: ['support'], siteIds: [t.siteId], companyIds: null };
  });
  afterAll(() => t.close());

  const from = { ip: '198.51.100.4' };
  const audited = (action: string) => t.database.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.staffId, agent.staffId)));

  it('finds a member by id, e-mail, the beginning of a name and a payment reference; each search is audited', async () => {
    const m = await signUp(t, { name: 'Wilhelmina' });
    const order = await m.client.post('/api/order.php', { package_id: (await m.client.get('/api/packages.php')).body.packages[0].id, paymentmethod: 'creditcard', withdrawal_consent: true }, { 'idempotency-key': 'support-order-1' });
    expect(order.status).toBe(201);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.orderId, order.body.order.id));
    for (const query of [String(m.user.id), m.user.email, m.user.email.toUpperCase(), 'wilhelm', order.body.order.id, payment.providerRef]) {
      expect((await t.services.support.find(agent, { query }, from)).members.map((f) => f.id), query).toContain(m.user.id);
    }
    // A wildcard is a character like any other; a control character or an empty query is refused.
    expect(await t.services.support.find(agent, { query: '%' }, from)).toEqual({ members: [], hasMore: false });
    for (const query of ['', '   ', 'a\u0000b', 'x'.repeat(201)]) await expect(t.services.support.find(agent, { query }, from)).rejects.toMatchObject({ status: 400 });
    const searches = await audited('member.search');
    expect(searches.find((a) => (a.after as { query: string }).query === 'wilhelm')).toMatchObject({ ip: '198.51.100.4', role: 'support' });
  });

  it('opens a member\'s overview with an audit row; staff of other sites, moderators and finance are refused', async () => {
    const m = await signUp(t, { name: 'Opened' });
    const other = await signUp(t, { name: 'Partner' });
    expect((await m.client.post('/api/messages.php', { profile_id: other.user.id, text: 'Hello there' }, { 'idempotency-key': 'support-msg-1' })).status).toBe(201);
    const view = await t.services.support.overview(agent, m.user.id, from);
    expect(view.account).toMatchObject({ id: m.user.id, email: m.user.email, siteId: t.siteId });
    expect(view.profile).toMatchObject({ name: 'Opened' });
    expect(view.sessions.length).toBeGreaterThanOrEqual(1);
    expect(view.conversations).toMatchObject({ count: 1, messagesSent: 1, latest: [expect.objectContaining({ otherId: other.user.id, sent: 1, received: 0 })] });
    // Never the messages' text.
    expect(JSON.stringify(view)).not.toContain('Hello there');
    expect((await audited('member.open')).filter((a) => a.memberId === m.user.id)).toHaveLength(1);

    const [second] = await t.database.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, 'men.localhost'));
    for (const refused of [
      { ...agent, siteIds: [second?.id ?? t.siteId + 1000] }, { ...agent, roles: ['moderator'] as const }, { ...agent, roles: ['finance'] as const },
    ] satisfies StaffActor[]) {
      await expect(t.services.support.overview(refused, m.user.id, from)).rejects.toMatchObject({ status: 403 });
    }
    await expect(t.services.support.find({ ...agent, roles: ['moderator'] }, { query: 'Opened' }, from)).rejects.toMatchObject({ status: 403 });
    await expect(t.services.support.find({ ...agent, siteIds: [] }, { query: 'Opened' }, from)).rejects.toMatchObject({ status: 403 });
    await expect(t.services.support.overview(agent, 2_000_000_000, from)).rejects.toMatchObject({ status: 404 });
    // Refusals opened nothing.
    expect((await audited('member.open')).filter((a) => a.memberId === m.user.id)).toHaveLength(1);
  });

  it('adjusts credits both ways with a ledger row and an audit row; a retry books nothing twice; taking back stops at the balance', async () => {
    const m = await signUp(t, { name: 'Adjusted' });
    const balance = async () => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, m.user.id)))[0].c;
    const start = await balance();
    const add = { credits: 25, reason: 'Goodwill: a payment took a day', idempotencyKey: 'adj-1-key' };
    expect(await t.services.support.adjustCredits(agent, m.user.id, add, from)).toEqual({ credits: 25, balance: start + 25 });
    expect(await t.services.support.adjustCredits(agent, m.user.id, add, from)).toEqual({ credits: 25, balance: start + 25 });
    expect(await balance()).toBe(start + 25);
    // Taking back more than the balance holds takes the balance.
    const back = await t.services.support.adjustCredits(agent, m.user.id, { credits: -(start + 1000), reason: 'Booked twice by mistake', idempotencyKey: 'adj-2-key' }, from);
    expect(back).toEqual({ credits: -(start + 25), balance: 0 });
    const rows = await t.database.db.select().from(creditLedger).where(and(eq(creditLedger.userId, m.user.id), eq(creditLedger.reason, 'adjustment')));
    expect(rows.map((r) => r.delta)).toEqual([25, -(start + 25)]);
    const audits = (await audited('member.adjust_credits')).filter((a) => a.memberId === m.user.id);
    expect(audits.map((a) => [a.before, a.after])).toEqual([
      [{ credits: start }, { credits: start + 25, delta: 25, reason: 'Goodwill: a payment took a day' }],
      [{ credits: start + 25 }, { credits: 0, delta: -(start + 25), reason: 'Booked twice by mistake' }],
    ]);
    // The member sees the correction in their credit history.
    const history = (await m.client.get('/api/credit-ledger.php')).body;
    expect(JSON.stringify(history)).toContain('adjustment');
    // Bad input changes nothing.
    for (const bad of [{ credits: 0 }, { credits: 1.5 }, { credits: 10_001 }, { reason: 'x' }, { reason: 'a\u0007bc' }]) {
      await expect(t.services.support.adjustCredits(agent, m.user.id, { ...add, idempotencyKey: 'adj-bad-key', ...bad }, from)).rejects.toMatchObject({ status: 400 });
    }
    await expect(t.services.support.adjustCredits({ ...agent, roles: ['moderator'] }, m.user.id, { ...add, idempotencyKey: 'adj-3-key' }, from)).rejects.toMatchObject({ status: 403 });
    expect(await balance()).toBe(0);
  });

  it('ends a member\'s sessions, mails an activation or a reset link, each audited', async () => {
    const m = await signUp(t, { name: 'Helped' }, { confirmed: false });
    expect(await t.services.support.endSessions(agent, m.user.id, from)).toEqual({ ended: 1 });
    expect(await t.database.db.$count(sessions, eq(sessions.userId, m.user.id))).toBe(0);
    const after = await m.client.get('/api/user.php');
    expect(after.body.error.code).toBe('authentication_required');
    const tokens = (purpose: 'activation' | 'password_reset') => t.database.db.$count(accountTokens, and(eq(accountTokens.userId, m.user.id), eq(accountTokens.purpose, purpose)));
    // The sign-up's own activation mail goes out from a durable subscriber: let it land before counting.
    await t.services.events.settle();
    const activations = await tokens('activation');
    await t.services.support.resendActivation(agent, m.user.id, from);
    expect(await tokens('activation')).toBe(activations + 1);
    await t.services.support.sendPasswordReset(agent, m.user.id, from);
    expect(await tokens('password_reset')).toBe(1);
    await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, m.user.id));
    await expect(t.services.support.resendActivation(agent, m.user.id, from)).rejects.toMatchObject({ status: 409 });
    for (const action of ['member.end_sessions', 'member.resend_activation', 'member.send_password_reset']) {
      expect((await audited(action)).filter((a) => a.memberId === m.user.id), action).toHaveLength(1);
    }
  });

  it('moderators mark a profile fictional and take the mark off; members then see it marked; support alone may not', async () => {
    const m = await signUp(t, { name: 'Operated' });
    const viewer = await signUp(t, { name: 'Viewer' });
    const moderator: StaffActor = { ...agent, roles: ['moderator'] };
    const seen = async () => (await viewer.client.get(`/api/profile.php?id=${m.user.id}`)).body.profile.fictional;
    expect(await seen()).toBe(false);
    await expect(t.services.support.setFictional(agent, m.user.id, { fictional: true, reason: 'Answered by staff' }, from)).rejects.toMatchObject({ status: 403 });
    await expect(t.services.support.setFictional(moderator, m.user.id, { fictional: true, reason: '' }, from)).rejects.toMatchObject({ status: 400 });
    expect(await seen()).toBe(false);
    expect(await t.services.support.setFictional(moderator, m.user.id, { fictional: true, reason: 'Answered by staff' }, from)).toEqual({ fictional: true });
    expect(await seen()).toBe(true);
    expect((await t.services.support.overview(agent, m.user.id, from)).profile?.fictional).toBe(true);
    await t.services.support.setFictional(moderator, m.user.id, { fictional: false, reason: 'A real member after all' }, from);
    expect(await seen()).toBe(false);
    const rows = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'member.fictional'))).filter((a) => a.memberId === m.user.id);
    expect(rows.map((r) => [r.before, r.after])).toEqual([
      [{ fictional: false }, { fictional: true, reason: 'Answered by staff' }], [{ fictional: true }, { fictional: false, reason: 'A real member after all' }],
    ]);
  });

  it('pages through more than 50 members found, newest or oldest first, and refuses a page out of range', async () => {
    // 120 members whose names begin alike, written straight to the database (the search reads them as any others).
    const made = await t.database.db.insert(users).values(Array.from({ length: 120 }, (_, i) => ({
      siteId: t.siteId, email: `pager${i}.${kind}@example.org`, passwordHash: 'x', status: 'active' as const,
    }))).returning({ id: users.id });
    await t.database.db.insert(profiles).values(made.map((u) => ({ userId: u.id, name: 'Pagerina', gender: 'female' as const, birthDate: '1990-01-01', country: 'NL' })));
    const ids = made.map((u) => u.id).sort((a, b) => b - a);
    const page = (n: number, order?: 'newest' | 'oldest') => t.services.support.find(agent, { query: 'pagerina', page: n, order }, from);
    const pages = [await page(1), await page(2), await page(3)];
    expect(pages.map((p) => [p.members.length, p.hasMore])).toEqual([[50, true], [50, true], [20, false]]);
    expect(pages.flatMap((p) => p.members.map((m) => m.id))).toEqual(ids);
    expect((await page(1, 'oldest')).members.map((m) => m.id)).toEqual([...ids].reverse().slice(0, 50));
    expect(await page(4)).toEqual({ members: [], hasMore: false });
    for (const bad of [0, -1, 1.5, 201]) await expect(page(bad)).rejects.toMatchObject({ status: 400 });
  });
});
