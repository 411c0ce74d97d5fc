import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { action as complaintsAction } from '../../app/routes/complaints.tsx';
import { createApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { limitKey } from '../http/client-address.ts';
import type { RequestContext } from '../http/context.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createLogger } from '../infra/logger.ts';
import { createTestApp, DATABASE_KINDS, signUp, TestClient, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * Per-address limits count an IPv6 client by its network (a /64 unless RATE_LIMIT_IPV6_PREFIX says otherwise),
 * and an IPv4-mapped address as the IPv4 address: rotating addresses inside one's own /64, or writing the same
 * IPv4 address the other way, gives no fresh budget.
 */
describe('the address per-address limits count', () => {
  it('is an IPv4 address as it is, a mapped one as IPv4, an IPv6 one as its network', () => {
    expect(limitKey('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(limitKey('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(limitKey('::FFFF:cb00:7107', 64)).toBe('203.0.113.7');
    expect(limitKey('[::ffff:203.0.113.7]', 64)).toBe('203.0.113.7');
    // Every spelling of one /64 is one key.
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::9%eth0', '2001:db8:1:2::1.2.3.4']) {
      expect(limitKey(address, 64)).toBe('2001:db8:1:2::/64');
    }
    expect(limitKey('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
    // The prefix length is the operator's.
    expect(limitKey('2001:db8:1:2ff::1', 56)).toBe('2001:db8:1:200::/56');
    expect(limitKey('2001:db8:0:0:1::5', 128)).toBe('2001:db8::1:0:0:5/128');
    expect(limitKey('2001:db8::1', 128)).toBe('2001:db8::1/128');
    // No socket address: kept as it is.
    expect(limitKey('local', 64)).toBe('local');
  });

  it('takes the IPv6 prefix length from RATE_LIMIT_IPV6_PREFIX (64 unless set)', () => {
    expect(loadEnv({}).RATE_LIMIT_IPV6_PREFIX).toBe(64);
    expect(loadEnv({ RATE_LIMIT_IPV6_PREFIX: '56' }).RATE_LIMIT_IPV6_PREFIX).toBe(56);
    for (const bad of ['16', '129', '64.5', 'sixty-four']) {
      expect(() => loadEnv({ RATE_LIMIT_IPV6_PREFIX: bad })).toThrow(/RATE_LIMIT_IPV6_PREFIX: must be a prefix length from 32 to 128/);
    }
  });
});

describe.each(DATABASE_KINDS)('per-address limits on %s count an IPv6 client per network', (kind) => {
  let t: TestApp;
  let app: ReturnType<typeof createApp>;
  const translator = createTranslator();

  /** The app behind one trusted proxy, with the complaints page (its real action) for the form posts. */
  async function appWith(env: Record<string, string> = {}) {
    return createApp({
      services: t.services, translator: await translator, env: loadEnv({ NODE_ENV: 'test', TRUST_PROXY: '1', ...env }), logger: createLogger('silent'),
      pages: async (request, ctx: RequestContext) => {
        if (request.method !== 'POST' || new URL(request.url).pathname !== '/complaints') return new Response('not here', { status: 404 });
        const answer = await complaintsAction({ context: { get: () => ctx }, request } as unknown as Parameters<typeof complaintsAction>[0]);
        const { data, init } = answer as unknown as { data: { result: { error?: Record<string, string[]> } }; init?: { status?: number } };
        return Response.json(data, { status: init?.status ?? 200 });
      },
    });
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, env: { TRUST_PROXY: '1' } });
    app = await appWith();
  });
  afterAll(() => t.close());

  /** A visitor at `ip`, as the trusted proxy reports it. */
  const from = (ip: string, on = app) => new TestClient(on, 'localhost', { 'x-forwarded-for': ip });
  /** The n-th address of a /64, far apart inside it. */
  const inNet = (net: string, n: number) => `${net}:${((n * 7919) & 0xffff).toString(16)}:${n.toString(16)}:${randomBytes(2).toString('hex')}:${n + 1}`;
  const wrongLogin = (c: TestClient) => c.post('/api/user.php', { email: `nobody.${randomBytes(4).toString('hex')}@example.org`, password: 'wrong password' });

  it('log-in: 20 attempts a quarter hour per /64, however the addresses in it rotate', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await wrongLogin(from(inNet('2001:db8:10:1', i)))).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    // The neighbouring /64 is someone else.
    expect((await wrongLogin(from('2001:db8:10:2::1'))).status).toBe(401);
  });

  it('log-in: an IPv4 address and its mapped IPv6 form share one count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await wrongLogin(from(i % 2 ? '::ffff:203.0.113.60' : '203.0.113.60'))).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('log-in throttle per (e-mail, address): five wrong passwords from one /64, then that /64 waits', async () => {
    const { user } = await signUp(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await from(inNet('2001:db8:11:1', i)).post('/api/user.php', { email: user.email, password: `guess ${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await from('2001:db8:11:1::beef').post('/api/user.php', { email: user.email, password: 'correct horse battery' })).body.error.code).toBe('login_throttled');
  });

  it('sign-up: 10 an hour per /64', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await from(inNet('2001:db8:12:1', i)).post('/api/signup.php', {})).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await from('2001:db8:12:2::1').post('/api/signup.php', {})).status).toBe(400);
  });

  it('password reset: the mail endpoints\' 10 an hour, and one account\'s reset mails, per /64', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await from(inNet('2001:db8:13:1', i)).post('/api/password-reset.php', { email: `nobody${i}@example.org` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses[10]).toBe(429);

    const { user } = await signUp(t);
    const resets: number[] = [];
    for (let i = 0; i < 4; i++) resets.push((await from(inNet('2001:db8:13:2', i)).post('/api/password-reset.php', { email: user.email })).status);
    expect(resets).toEqual([200, 200, 200, 429]);
    expect((await from('2001:db8:13:3::1').post('/api/password-reset.php', { email: user.email })).status).toBe(200);
  });

  it('complaints: 10 notices an hour per /64 (the page\'s form)', async () => {
    const notice = (ip: string, n: number) => app.request('http://localhost/complaints', {
      method: 'POST',
      headers: { host: 'localhost', 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        kind: 'profile', content: String(t.demoUserId), reason: 'illegal', explanation: 'This profile offers illegal services for money.',
        name: 'Rita Reporter', email: `rotating${n}.${kind}@example.org`, bona_fide: 'on',
      }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await notice(inNet('2001:db8:14:1', i), i)).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await notice('2001:db8:14:2::1', 99)).status).toBe(200);
  });

  it('page bounces: 60 an hour per /64', async () => {
    const bounce = (ip: string) => from(ip).post('/api/page-bounce.php', { path: '/landers/video', seconds: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await bounce(inNet('2001:db8:15:1', i))).status);
    expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await bounce('2001:db8:15:2::1')).status).toBe(204);
  });

  it('takes the network size from RATE_LIMIT_IPV6_PREFIX', async () => {
    // A /48 per client: two /64s of one /48 share one count.
    const wide = await appWith({ RATE_LIMIT_IPV6_PREFIX: '48' });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await wrongLogin(from(`2001:db8:16:${i.toString(16)}::1`, wide))).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Each address its own (128): 21 addresses of one /64 are 21 clients.
    const narrow = await appWith({ RATE_LIMIT_IPV6_PREFIX: '128' });
    const each: number[] = [];
    for (let i = 0; i < 21; i++) each.push((await wrongLogin(from(inNet('2001:db8:17:1', i), narrow))).status);
    expect(each.every((s) => s === 401)).toBe(true);
  });
});
