import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { AUTH_COOKIE } from '#common/constants.ts';
import { accountTokens, notices, outbox, rateLimits, sessions, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * The attacks of issue 24 item 7, replayed: page actions took a JSON body, a broken multipart body or a return
 * target with a character above U+00FF, and answered 500 (the log-in had already signed the member in). Every one
 * now answers 4xx before any action runs and changes nothing, or, for a return target, goes to this site's path
 * written as a Location header can carry it. (The fuzz in hostile-requests-never-answer-500.test.ts covers every
 * action with generated requests.)
 */
describe.each(DATABASE_KINDS)('page actions refuse malformed input with 4xx and change nothing (%s)', (kind) => {
  let t: TestApp;
  let profileId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, pages: true });
    profileId = t.demoUserId;
  }, 300_000);
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  }, 120_000);

  let n = 0;
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) => t.app.request(`http://localhost${path}`, {
    method: 'POST', headers: { host: 'localhost', ...headers }, body,
  }, { incoming: { socket: { remoteAddress: `192.0.2.${++n % 250}` } } });

  /** Rows that an action would write: members, sessions, notices, mails and other events, tokens, rate-limit counts. */
  const rows = async () => {
    const db = t.database.db;
    const one = async (table: typeof users | typeof sessions | typeof notices | typeof outbox | typeof accountTokens | typeof rateLimits) => (await db.select({ n: count() }).from(table))[0].n;
    return { users: await one(users), sessions: await one(sessions), notices: await one(notices), outbox: await one(outbox), tokens: await one(accountTokens), limits: await one(rateLimits) };
  };

  const account = { email: 'malformed@example.org', name: 'Malformed', password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL' };
  const forms = () => [
    ['/login', { email: 'demo@example.com', password: 'amora-demo' }],
    ['/signup', { intent: 'signup', ...account }],
    ['/signup-matches', { intent: 'signup', ...account }],
    [`/members/${profileId}/signup`, { intent: 'signup', ...account }],
    ['/complaints', { kind: 'profile', content: String(profileId), reason: 'harassment', explanation: 'Rude.', name: 'Anna', email: 'anna@example.org', bona_fide: 'on' }],
    ['/reset-password', { email: 'demo@example.com' }],
    ['/reset-password/do', { token: 'token', password: 'a long new password', password_confirm: 'a long new password' }],
  ] as const;

  it('a JSON body, or no form media type at all, is 415 form_required in the visitor\'s language', async () => {
    await t.services.events.settle();
    const before = await rows();
    for (const [path, fields] of forms()) {
      for (const target of [path, `${path}.data`]) {
        const json = await post(target, JSON.stringify(fields), { 'content-type': 'application/json', 'accept-language': 'de' });
        expect(json.status, target).toBe(415);
        expect(await json.json()).toEqual({ error: { code: 'form_required', message: 'Die Anfrage muss als Formular gesendet werden.' } });
        for (const type of ['text/plain', 'application/xml', undefined]) {
          const res = await post(target, new URLSearchParams(fields).toString(), type ? { 'content-type': type } : {});
          expect(res.status, `${target} ${type}`).toBe(415);
          expect((await res.json()).error.code).toBe('form_required');
        }
      }
    }
    await t.services.events.settle();
    expect(await rows()).toEqual(before);
  }, 120_000);

  it('a broken multipart body (another boundary, none, cut short, no end) is 400 invalid_input', async () => {
    await t.services.events.settle();
    const before = await rows();
    for (const [path, fields] of forms()) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const encoded = new Request('http://localhost/', { method: 'POST', body: form });
      const type = encoded.headers.get('content-type')!;
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      const broken: Array<[Uint8Array<ArrayBuffer>, string]> = [
        [bytes, 'multipart/form-data; boundary=----not-the-boundary'],
        [bytes, 'multipart/form-data'],
        [bytes.subarray(0, Math.floor(bytes.length / 2)), type],
        [bytes.subarray(0, bytes.length - 8), type],
      ];
      for (const [body, contentType] of broken) {
        const res = await post(path, body, { 'content-type': contentType });
        expect(res.status, `${path} ${contentType} ${body.length}`).toBe(400);
        expect((await res.json()).error).toMatchObject({ code: 'invalid_input', message: expect.any(String) });
      }
    }
    await t.services.events.settle();
    expect(await rows()).toEqual(before);
  }, 120_000);

  it('field names no form writes are refused before the form is read: a list index is not a list that long', async () => {
    const { user } = await signUp(t);
    const cookie = `${AUTH_COOKIE}=${await t.services.accounts.createSession(user.id, t.siteId, 'test')}`;
    // The sign-up's activation mail leaves the outbox first.
    await t.services.events.settle();
    const before = await rows();
    for (const body of ['interests[99999999]=music', 'name=Anna&a[9999999]=1', '__proto__.x=1', 'constructor.prototype.x=1', `${'x'.repeat(100)}=1`, 'a'.repeat(20) + '&a'.repeat(400), '%', '=&=&&']) {
      const started = performance.now();
      const res = await post('/profile', body, { 'content-type': 'application/x-www-form-urlencoded', cookie });
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_input');
      expect(performance.now() - started).toBeLessThan(2000);
    }
    expect(await rows()).toEqual(before);
  }, 120_000);

  it('an empty form to a page that shows it again is that page with its errors, not a 500', async () => {
    const { user } = await signUp(t);
    const cookie = `${AUTH_COOKIE}=${await t.services.accounts.createSession(user.id, t.siteId, 'test')}`;
    for (const body of ['', 'name=', 'about=&country=&interests=']) {
      const res = await post('/profile', body, { 'content-type': 'application/x-www-form-urlencoded', cookie });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  }, 120_000);

  it('a form sent as multipart, as browsers may send it, still works', async () => {
    const form = new FormData();
    form.append('email', 'demo@example.com');
    form.append('password', 'amora-demo');
    const res = await post('/login', form);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/members');
    expect(res.headers.get('set-cookie')).toContain(`${AUTH_COOKIE}=`);
  }, 120_000);

  it('a return target above U+00FF is sent on percent-encoded; one to another site or with control characters goes to the fallback', async () => {
    const logIn = (redirect: string) => post(`/login?redirect=${encodeURIComponent(redirect)}`, 'email=demo%40example.com&password=amora-demo', { 'content-type': 'application/x-www-form-urlencoded' });
    const cases: Array<[string, string]> = [
      ['/\u0100', '/%C4%80'],
      ['/членове?q=ü#é', '/%D1%87%D0%BB%D0%B5%D0%BD%D0%BE%D0%B2%D0%B5?q=%C3%BC#%C3%A9'],
      ['/\u{1F600}', '/%F0%9F%98%80'],
      ['/likes', '/likes'],
      ['//evil.example', '/members'],
      ['\\\\evil.example', '/members'],
      ['/\\evil.example', '/members'],
      ['/..//evil.example', '/members'],
      ['/\t/evil.example', '/members'],
      ['/a\r\nSet-Cookie: x=1', '/members'],
      ['https://evil.example/', '/members'],
    ];
    for (const [target, location] of cases) {
      const res = await logIn(target);
      expect(res.status, target).toBe(302);
      expect(res.headers.get('location'), target).toBe(location);
    }
    // The entry warning's form sends the visitor back to the page it was on.
    const back = await post('/entry-warning', new URLSearchParams({ return: '/pages/faq?ä=Ā' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/pages/faq?%C3%A4=%C4%80');
    const away = await post('/entry-warning', new URLSearchParams({ return: '/..//evil.example' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(away.headers.get('location')).toBe('/');
  }, 120_000);
});
