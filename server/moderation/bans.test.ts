import type { Actor, StaffActor } from '../actor.ts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { creditLedger, memberBans, profiles, sessions, sites, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { createStaff } from '../../tests/helpers/staff.ts';

describe.each(DATABASE_KINDS)('banning a member on %s', (kind) => {
  let t: TestApp;
  let MODERATOR: StaffActor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    MODERATOR = (await createStaff(t, { roles: ['moderator'] })).actor;
    // Every message is paid here (no free messages), so every send has its ledger row.
    await t.database.db.update(sites).set({ freeMessages: 0 }).where(eq(sites.id, t.siteId));
    await t.services.settings.invalidateSites();
  });
  afterAll(() => t.close());

  let keys = 0;
  const give = (userId: number, credits: number) =>
    t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', `ban-grant-${userId}-${++keys}`));
  const send = (client: ReturnType<TestApp['client']>, to: number, text: string) =>
    client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': `ban-msg-${++keys}-key` });
  const credits = async (userId: number) => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, userId)))[0].c;
  const refundRows = (userId: number) => t.database.db.select().from(creditLedger).where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, 'ban_refund')));

  it('gives back every credit members spent on a fake profile, once, and takes the profile out of reach', async () => {
    const fake = await signUp(t, { name: 'Fake' });
    const honest = await signUp(t, { name: 'Honest' });
    const a = await signUp(t, { name: 'Alice' });
    const b = await signUp(t, { name: 'Bob' });
    for (const m of [fake, a, b]) await give(m.user.id, 100);
    const before = { a: await credits(a.user.id), b: await credits(b.user.id) };
    for (const text of ['Hi there', 'Are you real?', 'Hello again']) expect((await send(a.client, fake.user.id, text)).status).toBe(201);
    expect((await send(b.client, fake.user.id, 'Hey')).status).toBe(201);
    // A gift is a spend on the contact too.
    const { gifts } = (await a.client.get('/api/gifts.php')).body;
    expect((await a.client.post('/api/gift.php', { profile_id: fake.user.id, gift_id: gifts[0].id }, { 'idempotency-key': `ban-gift-${++keys}-key` })).status).toBe(201);
    const spentOnFake = before.a - (await credits(a.user.id));
    expect(spentOnFake).toBeGreaterThan(0);
    expect((await send(a.client, honest.user.id, 'Hi honest')).status).toBe(201);
    const spentOnHonest = before.a - spentOnFake - (await credits(a.user.id));
    expect((await send(fake.client, a.user.id, 'Send me money')).status).toBe(201);
    const fakeBalance = await credits(fake.user.id);

    const { refunds } = await t.services.bans.ban(MODERATOR, fake.user.id, 'fake', 'stock photos');
    // Alice gets back what the three messages and the gift to the fake profile cost, not the message to an honest member.
    expect(await credits(a.user.id)).toBe(before.a - spentOnHonest);
    expect(refunds).toContainEqual({ userId: a.user.id, credits: spentOnFake });
    expect((await refundRows(a.user.id)).length).toBe(4);
    expect(await refundRows(b.user.id)).toHaveLength(1);
    expect(await credits(b.user.id)).toBe(before.b);
    // The fake profile's own spends are not refunded; it is disabled and signed out everywhere.
    expect(await credits(fake.user.id)).toBe(fakeBalance);
    expect(await refundRows(fake.user.id)).toHaveLength(0);
    expect((await t.database.db.select().from(profiles).where(eq(profiles.userId, fake.user.id)))[0].status).toBe('disabled');
    expect(await t.database.db.$count(sessions, eq(sessions.userId, fake.user.id))).toBe(0);
    expect((await t.database.db.select().from(memberBans).where(eq(memberBans.userId, fake.user.id)))[0]).toMatchObject({ reason: 'fake', note: 'stock photos' });
    expect((await a.client.get(`/api/profile.php?id=${fake.user.id}`)).status).toBe(404);
    // Signing in again: refused with the reason, but only to whoever knows the password.
    const back = await t.client().post('/api/user.php', { email: fake.user.email, password: 'correct horse battery' });
    expect([back.status, back.body.error.code]).toEqual([403, 'account_banned']);
    expect((await t.client().post('/api/user.php', { email: fake.user.email, password: 'wrong horse battery' })).body.error.code).toBe('login_failed');

    // Banning again (even as a scammer) refunds nothing twice.
    const again = await t.services.bans.ban(MODERATOR, fake.user.id, 'scammer');
    expect(again.refunds).toEqual([]);
    expect(await refundRows(a.user.id)).toHaveLength(4);
  });

  it('refunds nothing for a ban that is not about a fake profile or a scam; unknown members are not found', async () => {
    const rude = await signUp(t, { name: 'Rude' });
    const c = await signUp(t, { name: 'Carol' });
    await give(c.user.id, 100);
    for (const text of ['One', 'Two', 'Three']) expect((await send(c.client, rude.user.id, text)).status).toBe(201);
    const balance = await credits(c.user.id);
    expect((await t.services.bans.ban(MODERATOR, rude.user.id, 'abuse')).refunds).toEqual([]);
    expect(await credits(c.user.id)).toBe(balance);
    await expect(t.services.bans.ban(MODERATOR, 2_000_000_000, 'fake')).rejects.toMatchObject({ status: 404 });
    // A moderator of another site finds no such member, and nothing changes.
    const elsewhere = (await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId + 1000] })).actor;
    const bystander = await signUp(t, { name: 'Bystander' });
    await expect(t.services.bans.ban(elsewhere, bystander.user.id, 'abuse')).rejects.toMatchObject({ status: 404 });
    expect(await t.database.db.$count(memberBans, eq(memberBans.userId, bystander.user.id))).toBe(0);
  });

  it('lets only staff ban: a member or a visitor is refused and nothing changes', async () => {
    const target = await signUp(t, { name: 'Target' });
    const member = await signUp(t, { name: 'Member' });
    const site = 1;
    for (const actor of [{ kind: 'member', userId: member.user.id, siteId: site }, { kind: 'visitor', siteId: site }] as Actor[]) {
      await expect(t.services.bans.ban(actor, target.user.id, 'fake')).rejects.toMatchObject({ status: 403 });
    }
    expect(await t.services.db.select().from(memberBans).where(eq(memberBans.userId, target.user.id))).toEqual([]);
    expect((await target.client.get('/api/user.php')).status).toBe(200);
  });
});
