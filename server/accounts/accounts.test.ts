import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { loadLocales } from '../i18n/i18n.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('accounts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 5 });
  });
  afterAll(() => t.close());

  const valid = { email: 'new.member@example.org', name: 'Marieke', password: 'long enough pw', date_of_birth: '1995-02-03', gender: 'female', country: 'NL' };

  it('signs up, stores an argon2id hash and signs the member in', async () => {
    const client = t.client();
    const res = await client.post('/api/signup.php', { ...valid, network: 'adnet', sub1: 'x' });
    expect(res.status).toBe(201);
    const user = res.body.user;
    expect(user).toMatchObject({
      email: 'new.member@example.org', status: 'not_confirmed', paid_user: false, credits: 0, notifications_disabled: [],
      language: 'en', profile: { name: 'Marieke', country: 'NL', gender: 'female', status: 'active', main_image: null },
    });
    expect(user.profile.age).toBe(31);
    expect(typeof user.signup_date).toBe('string');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.network).toBe('adnet');
    expect(row.sub1).toBe('x');
    const me = await client.get('/api/user.php');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);
  });

  it.each([
    [{ name: 'new.member2@example.org', email: 'new.member2@example.org' }, 'name', 'Your name must be different from your e-mail address.'],
    [{ name: '@marieke' }, 'name', 'Your name cannot start with @.'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid e-mail address.'],
    [{ date_of_birth: '' }, 'date_of_birth', 'Please enter your date of birth.'],
    [{ date_of_birth: '1990-02-30' }, 'date_of_birth', 'This date of birth is not valid.'],
    [{ date_of_birth: '2010-01-01' }, 'date_of_birth', 'You must be at least 18 years old to sign up.'],
  ])('rejects %o with a translated message and creates nothing', async (override, field, message) => {
    const before = await t.database.db.$count(users);
    const res = await t.client().post('/api/signup.php', { ...valid, email: 'other@example.org', ...override });
    expect(res.status).toBe(400);
    expect(res.body.error.details[field]).toBe(message);
    expect(await t.database.db.$count(users)).toBe(before);
  });

  it('applies the minimum age to the day', async () => {
    // The test clock stands at 2026-06-01.
    const turns18Tomorrow = await t.client().post('/api/signup.php', { ...valid, email: 'young@example.org', date_of_birth: '2008-06-02' });
    expect(turns18Tomorrow.status).toBe(400);
    const turns18Today = await t.client().post('/api/signup.php', { ...valid, email: 'young@example.org', date_of_birth: '2008-06-01' });
    expect(turns18Today.status).toBe(201);
  });

  it('refuses a second account with the same e-mail, whatever its case', async () => {
    const res = await t.client().post('/api/signup.php', { ...valid, email: 'NEW.Member@Example.org', name: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_taken');
  });

  it('translates errors into the language of the locale cookie', async () => {
    const client = t.client();
    client.cookies.set('locale', 'de');
    const res = await client.post('/api/user.php', { email: 'demo@example.com', password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('login_failed');
    const de = loadLocales().de as { errors: Record<string, string> };
    expect(res.body.error.message).toBe(de.errors.login_failed);
  });

  it('logs in with {email, password} and sets the auth cookie as specified', async () => {
    const client = t.client();
    const res = await client.post('/api/user.php', { email: 'Demo@Example.com', password: 'amora-demo' });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('demo@example.com');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('auth.'))!;
    expect(cookie).toMatch(/^auth\.session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('answers GET /api/user.php without a session with 403 authentication_required', async () => {
    const res = await t.client().get('/api/user.php');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toContain('authentication_required');
  });

  it('logs out: the session no longer works', async () => {
    const client = t.client();
    await client.login();
    const token = client.cookies.get('auth.session')!;
    expect((await client.get('/api/logout.php')).status).toBe(200);
    const replay = t.client();
    replay.cookies.set('auth.session', token);
    expect((await replay.get('/api/user.php')).status).toBe(403);
  });

  it('stores the language with PUT /api/user.php and sets the locale cookie for a year', async () => {
    const client = t.client();
    await client.login();
    const res = await client.put('/api/user.php', { language: 'fi' });
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBe('fi');
    expect(res.headers.getSetCookie().find((c) => c.startsWith('locale='))).toMatch(/Max-Age=31536000/);
    expect((await client.put('/api/user.php', { language: 'xx' })).status).toBe(400);
    // Visitors may choose a language too: only the cookie changes.
    const visitor = t.client();
    const v = await visitor.put('/api/user.php', { language: 'sv' });
    expect(v.status).toBe(200);
    expect(visitor.cookies.get('locale')).toBe('sv');
    // Another device without a locale cookie: once signed in, the member's stored language applies and is kept.
    const device = t.client({ headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    await device.login();
    device.cookies.delete('locale');
    const again = await device.get('/api/settings.php');
    expect(again.status).toBe(200);
    expect(device.cookies.get('locale')).toBe('fi');
    expect((await device.put('/api/user.php', { language: 'zz' })).body.error.message).toBe('Tämä kieli ei ole käytettävissä.');
  });

  it('rate-limits log-in attempts per IP with 429 and recovers after the window', async () => {
    const local = await createTestApp(kind, { profiles: 0 });
    try {
      const client = local.client();
      let last = 0;
      for (let i = 0; i < 21; i++) last = (await client.post('/api/user.php', { email: 'x@example.org', password: 'nope' })).status;
      expect(last).toBe(429);
      // Another visitor is not affected; this one recovers when the window has passed.
      expect((await local.client().post('/api/user.php', { email: 'demo@example.com', password: 'amora-demo' })).status).toBe(200);
      local.clock.advance(16 * 60_000);
      expect((await client.post('/api/user.php', { email: 'demo@example.com', password: 'amora-demo' })).status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('refuses sign-up when the site is invite-only, and with_trafficsource needs a network', async () => {
    await t.services.settings.updateSite(t.siteId, { signups: 'with_trafficsource' });
    const without = await t.client().post('/api/signup.php', { ...valid, email: 'ts1@example.org' });
    expect(without.status).toBe(403);
    expect(without.body.error.message).toBe('Signing up is by invitation only at the moment.');
    const withSource = await t.client().post('/api/signup.php', { ...valid, email: 'ts1@example.org', network: 'partner' });
    expect(withSource.status).toBe(201);
    await t.services.settings.updateSite(t.siteId, { signups: 'none' });
    expect((await t.client().post('/api/signup.php', { ...valid, email: 'ts2@example.org', network: 'partner' })).status).toBe(403);
    await t.services.settings.updateSite(t.siteId, { signups: 'all' });
  });

  it('keeps signUp helper members independent', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    expect(a.user.id).not.toBe(b.user.id);
  });
});
