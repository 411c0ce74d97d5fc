import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALE_COOKIE } from '#common/languages.ts';
import { STAFF_COOKIE } from '#common/staff.ts';
import { auditLog, staffSessions } from '../db/schema.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { base32Decode, hotp, totpStep } from './totp.ts';
import { STAFF_SESSION_IDLE_MS, STAFF_SESSION_LIFETIME_MS } from './staff-sign-in.ts';

/**
 * Staff over HTTP: the console's two-step sign-in and its cookie, the session's idle and absolute ends, API tokens
 * acting only within their scopes, and members, visitors and staff of another site refused.
 */
describe.each(DATABASE_KINDS)('staff sessions and tokens over HTTP on %s', (kind) => {
  let t: TestApp;
  let admin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    admin = await createStaff(t, { roles: ['admin'], name: 'Ada Admin' });
  }, 300_000);
  afterAll(() => t.close());
  const { page, postForm } = pageRequests(() => t);

  const codeAt = (secret: string) => hotp(base32Decode(secret), totpStep(t.clock()));
  const challengeIn = (html: string) => /name="challenge" value="([^"]+)"/.exec(html)?.[1];

  async function signIn(staff: TestStaff, code: string, https = false) {
    const first = await postForm('/console/login', { intent: 'password', email: staff.email, password: staff.password }, undefined, https);
    const challenge = challengeIn(await first.text());
    expect(challenge).toBeDefined();
    return postForm('/console/login', { intent: 'code', challenge: challenge!, code }, undefined, https);
  }

  it('signs in with password and TOTP code, sets the console cookie (HttpOnly, SameSite=Strict, 12 h; Secure over https) and shows the console', async () => {
    const done = await signIn(admin, codeAt(admin.totpSecret), true);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/console');
    const setCookie = done.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_COOKIE}=`))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toContain(`Max-Age=${STAFF_SESSION_LIFETIME_MS / 1000}`);
    const cookie = setCookie.split(';')[0];
    const consolePage = await page('/console', cookie);
    expect(consolePage.status).toBe(200);
    // Staff pages are kept by no cache and indexed by no search engine.
    expect(consolePage.headers.get('cache-control')).toBe('private, no-store');
    expect(consolePage.headers.get('x-robots-tag')).toBe('noindex');
    const html = await consolePage.text();
    expect(html).toContain('Ada Admin');
    expect(html).toContain('data-testid="console-nav"');
    expect((await page('/console/no-such-screen', cookie)).status).toBe(404);
    // Over plain http the cookie is not Secure (a local console still works).
    t.clock.advance(30_000);
    const plain = await signIn(admin, codeAt(admin.totpSecret));
    expect(plain.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_COOKIE}=`))).not.toMatch(/Secure/);
  });

  it('speaks the staff member\'s language, whatever the browser or a member cookie says', async () => {
    const german = await createStaff(t, { roles: ['support'], language: 'de', name: 'Greta' });
    const res = await page('/console', `${(await german.cookie()).cookie}; ${LOCALE_COOKIE}=en`);
    const html = await res.text();
    expect(html).toMatch(/<html lang="de/);
    expect(html).toContain('Übersicht');
    expect(html).toContain('Willkommen, Greta.');
  });

  it('refuses a wrong code with a clear message and no cookie; a wrong password says so and gives no second step', async () => {
    const wrongCode = await signIn(admin, '000000');
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.headers.getSetCookie().some((c) => c.startsWith(`${STAFF_COOKIE}=`))).toBe(false);
    expect(await wrongCode.text()).toContain('That code is not right, or it has expired.');
    const wrongPassword = await postForm('/console/login', { intent: 'password', email: admin.email, password: 'not the password' });
    expect(wrongPassword.status).toBe(401);
    const html = await wrongPassword.text();
    expect(html).toContain('The e-mail address or password is wrong.');
    expect(challengeIn(html)).toBeUndefined();
  });

  it('ends a session after 30 idle minutes and 12 hours after sign-in, whatever happens', async () => {
    const staff = await createStaff(t, { roles: ['support'] });
    const { cookie } = await staff.cookie();
    const who = async () => (await t.client({ headers: { cookie } }).get('/api/audit-log.php')).status;
    expect(await who()).toBe(403); // signed in, without the role
    t.clock.advance(STAFF_SESSION_IDLE_MS - 1000);
    expect(await who()).toBe(403);
    t.clock.advance(STAFF_SESSION_IDLE_MS);
    expect(await who()).toBe(401);

    const busy = await staff.cookie();
    for (let spent = 0; spent < STAFF_SESSION_LIFETIME_MS - 20 * 60_000; spent += 20 * 60_000) {
      t.clock.advance(20 * 60_000);
      expect((await t.client({ headers: busy }).get('/api/audit-log.php')).status).toBe(403);
    }
    t.clock.advance(40 * 60_000);
    expect((await t.client({ headers: busy }).get('/api/audit-log.php')).status).toBe(401);
    expect(await t.database.db.$count(staffSessions, eq(staffSessions.staffId, staff.actor.staffId))).toBe(0);
  });

  it('lets a token act only within its scopes, and never after it is revoked', async () => {
    const { token } = await t.services.console.createToken(admin.actor, { name: 'moderation bot', scopes: ['moderator'] });
    const bot = t.client({ headers: { authorization: `Bearer ${token}` } });
    expect((await bot.get('/api/moderation.php')).status).toBe(200);
    // Its owner is an admin; the token is not.
    expect((await bot.get('/api/audit-log.php')).status).toBe(403);
    expect((await t.client({ headers: admin.bearer }).get('/api/audit-log.php')).status).toBe(200);
    const csv = await t.client({ headers: admin.bearer }).get('/api/audit-log.csv?action=staff.api_token.create');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(String(csv.body)).toContain('moderation bot');
    const [{ id }] = (await t.services.console.tokens(admin.actor)).filter((k) => k.name === 'moderation bot');
    await t.services.console.revokeToken(admin.actor, id);
    expect((await bot.get('/api/moderation.php')).status).toBe(401);
  });

  it('refuses members and visitors: the API answers 401, /console sends them to the console sign-in, never to member data', async () => {
    const member = await signUp(t, { name: 'Mara Member' });
    for (const client of [t.client(), member.client]) {
      const res = await client.get('/api/audit-log.php');
      expect([res.status, res.body.error.code]).toEqual([401, 'staff_authentication_required']);
      expect((await client.get('/api/audit-log.csv')).status).toBe(401);
    }
    const cookie = [...member.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const path of ['/console', '/console/account', '/console/audit', '/console/no-such-screen']) {
      const res = await page(path, cookie);
      expect([res.status, res.headers.get('location')], path).toEqual([302, '/console/login']);
    }
    const login = await page('/console/login', cookie);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).not.toContain('Mara Member');
    expect(html).not.toContain(member.user.email);
  });

  it('refuses staff of another site and staff without the role, and an admin limited to some sites the whole log', async () => {
    const elsewhere = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId + 1000] });
    expect((await t.client({ headers: elsewhere.bearer }).get('/api/page-bounce.php')).status).toBe(403);
    expect((await t.client({ headers: elsewhere.bearer }).get('/api/audit-log.php')).status).toBe(403);
    const local = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
    expect((await t.client({ headers: local.bearer }).get('/api/audit-log.php')).status).toBe(403);
    expect((await page('/console/audit', (await local.cookie()).cookie)).status).toBe(403);
    const moderator = await createStaff(t, { roles: ['moderator'] });
    expect((await t.client({ headers: moderator.bearer }).get('/api/audit-log.csv')).status).toBe(403);
  });

  it('signs out: the session ends, its cookie goes, the audit log says so', async () => {
    const staff = await createStaff(t, { roles: ['support'] });
    const { cookie } = await staff.cookie();
    const out = await postForm('/console/sign-out', {}, cookie);
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/console/login');
    expect(out.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_COOKIE}=`))).toMatch(/Max-Age=0/);
    expect((await page('/console', cookie)).status).toBe(302);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.staffId, staff.actor.staffId));
    expect(rows.map((r) => r.action)).toContain('staff.sign_out');
  });
});
