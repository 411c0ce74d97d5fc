import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { TRACKING_COOKIE } from '#common/constants.ts';
import { creditLedger, likes, messages, profiles, users } from '../db/schema.ts';
import type { SitePatch } from '../settings/settings.service.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const form = (email: string, extra: Record<string, unknown> = {}) => ({
  email, name: 'Newbie', password: 'correct horse battery', date_of_birth: '1991-02-03', gender: 'male', country: 'NL', ...extra,
});

describe.each(DATABASE_KINDS)('sign-up on %s', (kind) => {
  let t: TestApp;
  let otherId: number;
  let n = 0;
  const email = () => `signup${++n}.${kind}@example.org`;
  const userBy = async (address: string) => (await t.database.db.select().from(users).where(sql`lower(${users.email}) = ${address.toLowerCase()}`))[0];
  const setSite = (values: SitePatch) => t.services.settings.updateSite(t.siteId, values);

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 4 });
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(sql`${users.email} like 'member%@demo.amora.invalid'`).limit(1);
    otherId = row.id;
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await setSite({ signups: 'all', signupCredits: 0, messageCredits: 5 });
  });

  it('creates the member, signs them in and stores the tracking parameters', async () => {
    const client = t.client();
    const address = email();
    const res = await client.post('/api/signup.php', form(address, { network: 'adnet', ref: 'r1', sub1: 'a', sub2: 'b', sub3: 'c' }));
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: address, status: 'not_confirmed', profile: { name: 'Newbie', country: 'NL' } });
    expect(res.body.signup_message).toBeUndefined();
    expect((await client.get('/api/user.php')).body.user.id).toBe(res.body.user.id);
    const row = await userBy(address);
    expect([row.network, row.ref, row.sub1, row.sub2, row.sub3]).toEqual(['adnet', 'r1', 'a', 'b', 'c']);
  });

  it('keeps the first landing\'s tracking parameters in a cookie that later visits do not overwrite', async () => {
    const client = t.client();
    const first = await client.get('/api/settings.php?network=first-net&sub1=s1');
    expect(first.headers.getSetCookie().some((c) => c.startsWith(`${TRACKING_COOKIE}=`) && /HttpOnly/i.test(c))).toBe(true);
    const stored = client.cookies.get(TRACKING_COOKIE);
    const later = await client.get('/api/settings.php?network=second-net&ref=x');
    expect(later.headers.getSetCookie().some((c) => c.startsWith(`${TRACKING_COOKIE}=`))).toBe(false);
    expect(client.cookies.get(TRACKING_COOKIE)).toBe(stored);
    const address = email();
    expect((await client.post('/api/signup.php', form(address, { network: 'body-net' }))).status).toBe(201);
    const row = await userBy(address);
    expect([row.network, row.ref, row.sub1]).toEqual(['first-net', null, 's1']);
  });

  it('gates sign-up: with_trafficsource needs a network (given or stored), anything else is invite-only', async () => {
    await setSite({ signups: 'with_trafficsource' });
    const refused = await t.client().post('/api/signup.php', form(email(), { sub1: 'only-a-sub' }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'signup_disabled', message: 'Signing up is by invitation only at the moment.' });
    expect(await t.database.db.$count(users, eq(users.sub1, 'only-a-sub'))).toBe(0);

    expect((await t.client().post('/api/signup.php', form(email(), { network: 'given' }))).status).toBe(201);
    const visitor = t.client();
    await visitor.get('/api/settings.php?network=stored-net');
    const address = email();
    expect((await visitor.post('/api/signup.php', form(address))).status).toBe(201);
    expect((await userBy(address)).network).toBe('stored-net');

    await setSite({ signups: 'none' });
    expect((await t.client().post('/api/signup.php', form(email(), { network: 'given' }))).status).toBe(403);
  });

  it('offers log-in for an existing active account, whatever the letter case', async () => {
    const { user } = await signUp(t);
    const res = await t.client().post('/api/signup.php', form(user.email.toUpperCase()));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_taken');
    expect(res.body.error.details).toEqual({ email: res.body.error.message });
  });

  it('offers reactivation for an account deleted less than 14 days ago, and frees the address after that', async () => {
    const { user } = await signUp(t);
    const now = t.clock();
    await t.database.db.update(users).set({ status: 'deleted', deletedAt: new Date(now.getTime() - 13 * 86_400_000) }).where(eq(users.id, user.id));
    const res = await t.client().post('/api/signup.php', form(user.email));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'account_deleted', message: 'This e-mail address belongs to an account that was deleted recently. You can reactivate it.' });
    expect(await t.database.db.$count(users, sql`lower(${users.email}) = ${user.email}`)).toBe(1);

    await t.database.db.update(users).set({ deletedAt: new Date(now.getTime() - 15 * 86_400_000) }).where(eq(users.id, user.id));
    const again = await t.client().post('/api/signup.php', form(user.email));
    expect(again.status).toBe(201);
    expect(again.body.user.id).not.toBe(user.id);
    const [old] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(old.status).toBe('deleted');
    expect(old.email).toBe(`deleted-${user.id}@deleted.invalid`);
  });

  it('refuses an invalid birth date and an age under 18 with translated messages, creating nothing', async () => {
    const a = email();
    const invalid = await t.client().post('/api/signup.php', form(a, { date_of_birth: '1990-02-30' }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'birth_date_invalid', details: { date_of_birth: 'This date of birth is not valid.' } });
    const young = await t.client().post('/api/signup.php', form(a, { date_of_birth: '2010-01-01' }));
    expect(young.body.error).toMatchObject({ code: 'min_age', details: { date_of_birth: 'You must be at least 18 years old to sign up.' } });
    const nl = await t.client({ headers: { cookie: 'locale=nl' } }).post('/api/signup.php', form(a, { date_of_birth: '' }));
    expect(nl.body.error.code).toBe('birth_date_required');
    expect(nl.body.error.message).not.toBe('');
    expect(await userBy(a)).toBeUndefined();
  });

  it('sends the first message to the member when the sign-up credits pay for it', async () => {
    await setSite({ signupCredits: 10, messageCredits: 5 });
    const client = t.client();
    const address = email();
    const res = await client.post('/api/signup.php', form(address, { profile_id: otherId, signup_message: 'Hi, I saw your profile!' }));
    expect(res.status).toBe(201);
    expect(res.body.signup_message).toMatchObject({ status: 'sent', credits: 5 });
    const me = await userBy(address);
    const sent = await t.database.db.select().from(messages).where(eq(messages.senderId, me.id));
    expect(sent.map((m) => [m.body, m.creditsSpent])).toEqual([['Hi, I saw your profile!', 5]]);
    expect(res.body.signup_message.conversation_id).toBe(sent[0].conversationId);
    const ledger = await t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, me.id));
    expect(ledger.map((r) => [r.reason, r.delta])).toEqual([['signup_bonus', 10], ['message', -5]]);
  });

  it('keeps the first message as a draft when the new member has no credits for it', async () => {
    const address = email();
    const res = await t.client().post('/api/signup.php', form(address, { profile_id: otherId, signup_message: 'Hello you' }));
    expect(res.status).toBe(201);
    expect(res.body.signup_message).toEqual({ status: 'draft', code: 'insufficient_credits' });
    const me = await userBy(address);
    expect(await t.database.db.$count(messages, eq(messages.senderId, me.id))).toBe(0);
    expect(me.credits).toBe(0);
  });

  it('refuses a first message to a member who does not exist, creating no account', async () => {
    const address = email();
    const res = await t.client().post('/api/signup.php', form(address, { profile_id: 999999, signup_message: 'Hello' }));
    expect(res.status).toBe(404);
    expect(await userBy(address)).toBeUndefined();
  });

  it('gives the likes the visitor gave on the swipe lander as the new member\'s, dropping any that is not there for them; none is a match', async () => {
    const demos = await t.database.db.select({ id: users.id }).from(users).where(sql`${users.email} like 'member%@demo.amora.invalid'`).orderBy(users.id);
    const [liked, hidden] = [demos[1].id, demos[2].id];
    await t.database.db.update(users).set({ invisible: true }).where(eq(users.id, hidden));
    const gone = await signUp(t);
    await t.database.db.update(users).set({ status: 'deleted', deletedAt: t.clock() }).where(eq(users.id, gone.user.id));
    const address = email();
    const res = await t.client().post('/api/signup.php', form(address, { pending_likes: [liked, String(liked), hidden, gone.user.id, 999999] }));
    expect(res.status).toBe(201);
    expect(res.body.liked).toEqual([liked]);
    const me = await userBy(address);
    const given = await t.database.db.select().from(likes).where(eq(likes.likerId, me.id));
    expect(given.map((l) => [l.likedId, l.source])).toEqual([[liked, 'lander']]);
    // The liked member sees a like, not a match: nobody liked the new member.
    const overlay = await t.services.likes.autoLike({ kind: 'member', userId: liked, siteId: t.siteId });
    expect(overlay).toMatchObject({ id: me.id, match: false });
    await t.database.db.update(users).set({ invisible: false }).where(eq(users.id, hidden));
  });

  it('refuses malformed pending likes with 400, creating no account', async () => {
    for (const pending of [['0'], [-1], ['1e3'], 'abc', Array.from({ length: 21 }, (_, i) => i + 1), [{ id: 1 }]]) {
      const address = email();
      const res = await t.client().post('/api/signup.php', form(address, { pending_likes: pending }));
      expect(res.status, JSON.stringify(pending)).toBe(400);
      expect(res.body.error.code).toBeTypeOf('string');
      expect(await userBy(address)).toBeUndefined();
    }
  });

  it('saves the sign-up steps\' profile fields through PUT /api/signup-profile.php', async () => {
    const { client, user } = await signUp(t);
    const res = await client.put('/api/signup-profile.php', { sexuality: 'bi', country: 'DE', region: 'BY', about: '  I like long walks.  ' });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ id: user.id, country: 'DE', region: 'Bayern' });
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect([row.sexuality, row.country, row.region, row.about]).toEqual(['bi', 'DE', 'Bayern', 'I like long walks.']);

    // A new country without a region drops the old region.
    await client.put('/api/signup-profile.php', { country: 'NL' });
    const [moved] = await t.database.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect([moved.country, moved.region]).toEqual(['NL', null]);
  });

  it('refuses bad profile input and visitors, changing nothing', async () => {
    const { client, user } = await signUp(t);
    const badRegion = await client.put('/api/signup-profile.php', { region: 'BY' });
    expect(badRegion.status).toBe(400);
    expect(badRegion.body.error).toMatchObject({ code: 'region_invalid', message: 'Choose a region of the country you selected.' });
    expect((await client.put('/api/signup-profile.php', { sexuality: 'robot' })).body.error.code).toBe('sexuality_invalid');
    expect((await client.put('/api/signup-profile.php', { about: 'x'.repeat(2001) })).body.error.code).toBe('about_too_long');
    expect((await client.put('/api/signup-profile.php', { name: 'Renamed' })).status).toBe(400);
    expect((await t.client().put('/api/signup-profile.php', { about: 'anon' })).status).toBe(403);
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect([row.region, row.sexuality, row.about, row.name]).toEqual([null, null, '', user.profile.name]);
  });
});
