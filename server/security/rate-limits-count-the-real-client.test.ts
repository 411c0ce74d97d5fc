import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { TRACKING_COOKIE } from '#common/constants.ts';
import { createApp } from '../app.ts';
import { addCredits } from '../credits/ledger.ts';
import { rateLimits, users } from '../db/schema.ts';
import { loadEnv } from '../env.ts';
import { clientAddress, forwardedProto } from '../http/client-address.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createLogger } from '../infra/logger.ts';
import { databaseStore, redisStore, type RateLimitStore } from '../infra/rate-limit.ts';
import { localStorage } from '../infra/storage.ts';
import { createServices } from '../services.ts';
import { createTestApp, DATABASE_KINDS, signUp, TestClient, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtp } from '../../tests/helpers/smtp.ts';


describe('rate limits count the real client (addresses behind proxies)', () => {
  it('takes the client address counting trusted hops from the right', () => {
    // One proxy: it appended the address it saw; whatever the client sent is to its left.
    expect(clientAddress('6.6.6.6, 203.0.113.7', '10.0.0.1', 1)).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7', '10.0.0.1', 1)).toBe('203.0.113.7');
    // Two proxies.
    expect(clientAddress('6.6.6.6, 203.0.113.7, 10.0.0.2', '10.0.0.1', 2)).toBe('203.0.113.7');
    // Fewer entries than hops, malformed entries, or no trust: the nearest trusted address.
    expect(clientAddress('203.0.113.7', '10.0.0.1', 3)).toBe('203.0.113.7');
    expect(clientAddress('6.6.6.6, not-an-ip', '10.0.0.1', 1)).toBe('10.0.0.1');
    expect(clientAddress('6.6.6.6, 203.0.113.7', '10.0.0.1', 0)).toBe('10.0.0.1');
    expect(clientAddress(undefined, '10.0.0.1', 1)).toBe('10.0.0.1');
    expect(clientAddress('2001:db8::1', '::1', 1)).toBe('2001:db8::1');
    expect(forwardedProto('http, https', 'http', 1)).toBe('https');
    expect(forwardedProto('https, http', 'http', 1)).toBe('http');
    expect(forwardedProto('https', 'http', 0)).toBe('http');
    expect(forwardedProto('javascript', 'http', 1)).toBe('http');
  });

  it('reads TRUST_PROXY as a number of hops', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(0);
    expect(loadEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(() => loadEnv({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });
});
const REDIS_URL = inject('redisUrl');
const withRedis = REDIS_URL !== null;

describe.each(DATABASE_KINDS)('rate limits count the real client on %s', (kind) => {
  let t: TestApp;
  let smtp: TestSmtp;
  const redisClients: Redis[] = [];
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(kind, { profiles: 3, smtpUrl: smtp.url, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t.services.events.settle();
    for (const r of redisClients) r.disconnect();
    await t.close();
    await smtp.close();
  });

  /** Another instance of the server over the same database, as behind a load balancer. */
  async function instance(store: RateLimitStore) {
    const services = createServices({ db: t.database.db, clock: t.clock, storage: localStorage(t.photosDir), logger: createLogger('error'), rateLimitStore: store });
    const app = createApp({ services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test', TRUST_PROXY: '1' }), logger: createLogger('silent') });
    return { client: (ip: string) => new TestClient(app, 'localhost', { 'x-forwarded-for': ip }) };
  }

  const wrongLogin = (c: TestClient, i: number, headers?: Record<string, string>) =>
    c.post('/api/user.php', { email: `nobody${i}.${randomBytes(3).toString('hex')}@example.org`, password: 'wrong password' }, headers);

  it('40 log-ins with a changing leftmost X-Forwarded-For behind one proxy get 429', async () => {
    const proxy = t.client();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push((await wrongLogin(proxy, i, { 'x-forwarded-for': `10.${i}.${i}.1, 203.0.113.7` })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // Browser tests: one X-Forwarded-For value per simulated member is that member's own address.
    expect((await wrongLogin(proxy, 99, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(401);
  });

  it('two instances over one database share one limit', async () => {
    const a = await instance(databaseStore(t.database.db));
    const b = await instance(databaseStore(t.database.db));
    const ip = '198.51.100.10';
    for (let i = 0; i < 10; i++) {
      expect((await wrongLogin(a.client(ip), i)).status).toBe(401);
      expect((await wrongLogin(b.client(ip), i)).status).toBe(401);
    }
    const over = await wrongLogin(b.client(ip), 21);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('too_many_requests');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await wrongLogin(a.client(ip), 22)).status).toBe(429);
    // The counter is one row; once its window has ended the hourly purge drops it.
    const rows = await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, `login:${ip}`));
    expect(rows).toEqual([expect.objectContaining({ count: 22 })]);
    t.clock.advance(15 * 60_000);
    expect((await wrongLogin(a.client(ip), 23)).status).toBe(401);
    t.clock.advance(15 * 60_000);
    expect(await t.services.rateLimitStore.purgeExpired(t.clock())).toBeGreaterThan(0);
    expect(await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, `login:${ip}`))).toEqual([]);
  });

  it.skipIf(!withRedis)('two instances over one Redis share one limit', async () => {
    const prefix = `amora-test:${randomBytes(6).toString('hex')}:`;
    const stores = [0, 1].map(() => {
      const r = new Redis(REDIS_URL ?? '');
      redisClients.push(r);
      return redisStore(r, prefix);
    });
    const a = await instance(stores[0]);
    const b = await instance(stores[1]);
    const ip = '198.51.100.20';
    for (let i = 0; i < 10; i++) {
      expect((await wrongLogin(a.client(ip), i)).status).toBe(401);
      expect((await wrongLogin(b.client(ip), i)).status).toBe(401);
    }
    expect((await wrongLogin(a.client(ip), 21)).status).toBe(429);
    expect((await wrongLogin(b.client(ip), 22)).status).toBe(429);
    // Counted in Redis, not in the database.
    expect(await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, `login:${ip}`))).toEqual([]);
    expect(await redisClients[0].hget(`${prefix}login:${ip}`, 'count')).toBe('22');
    t.clock.advance(15 * 60_000);
    expect((await wrongLogin(b.client(ip), 23)).status).toBe(401);
  });

  const member = (name: string) => signUp(t, { email: `${name.toLowerCase()}.${randomBytes(4).toString('hex')}@example.org`, name });

  it('a like/unlike loop sends the liked member at most one mail', async () => {
    const a = await member('Looper');
    const b = await member('Target');
    await t.services.events.settle();
    for (let i = 0; i < 10; i++) {
      expect((await a.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
      expect((await a.client.delete('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
    }
    await t.services.events.settle();
    // settle() returns once the SMTP server has accepted every mail the likes caused.
    await smtp.waitFor(b.user.email, (m) => m.subject === 'Looper likes you');
    expect(smtp.to(b.user.email).filter((m) => m.subject.includes('Looper'))).toHaveLength(1);
    // A day later the same pair may mail again.
    t.clock.advance(24 * 60 * 60_000 + 1000);
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await t.services.events.settle();
    await smtp.waitFor(b.user.email, () => smtp.to(b.user.email).filter((m) => m.subject.includes('Looper')).length === 2);
  });

  it('caps the notification mails a member gets per hour, whoever sends them', async () => {
    const target = await member('Popular');
    await t.services.events.settle();
    for (let i = 0; i < 12; i++) {
      const liker = await member(`Fan${i}`);
      expect((await liker.client.post('/api/like.php', { profile_id: target.user.id })).status).toBe(200);
    }
    // settle() returns once the SMTP server has accepted every mail the likes caused: ten, not twelve.
    await t.services.events.settle();
    expect(smtp.to(target.user.email).filter((m) => m.subject.includes('likes you'))).toHaveLength(10);
  });

  it('answers 429 too_many_requests (translated, Retry-After) to too many likes or messages', async () => {
    const a = await member('Busy');
    const b = await member('Calm');
    await t.database.db.transaction((tx) => addCredits(tx, a.user.id, 500, 'demo_grant', `h5-${a.user.id}`));
    const likes: number[] = [];
    for (let i = 0; i < 31; i++) likes.push((await a.client.request(i % 2 ? 'DELETE' : 'POST', '/api/like.php', { profile_id: b.user.id })).status);
    expect(likes.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(likes[30]).toBe(429);
    await a.client.put('/api/user.php', { language: 'de' });
    const de = await a.client.post('/api/like.php', { profile_id: b.user.id });
    expect(de.status).toBe(429);
    expect(de.body.error).toEqual({ code: 'too_many_requests', message: 'Zu viele Versuche. Bitte warte 1 Minute und versuch es dann erneut.' });
    expect(Number(de.headers.get('retry-after'))).toBeGreaterThan(0);

    const sent: number[] = [];
    for (let i = 0; i < 21; i++) {
      sent.push((await a.client.post('/api/messages.php', { profile_id: b.user.id, text: `hello ${i}` }, { 'idempotency-key': `h5-msg-${a.user.id}-${i}` })).status);
    }
    expect(sent.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(sent[20]).toBe(429);
    t.clock.advance(60_000);
    expect((await a.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
    expect((await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'later' }, { 'idempotency-key': `h5-msg-${a.user.id}-late` })).status).toBe(201);
  });

  it('ignores an unsigned or tampered tracking cookie', async () => {
    const networkOf = async (address: string) =>
      (await t.database.db.select({ network: users.network }).from(users).where(sql`lower(${users.email}) = ${address}`))[0]?.network;
    const form = (email: string) => ({ email, name: 'Tracked', password: 'correct horse battery', date_of_birth: '1991-02-03', gender: 'male', country: 'NL' });

    // The genuine, signed cookie works.
    const genuine = t.client();
    await genuine.get('/api/settings.php?network=real-net');
    const signed = genuine.cookies.get(TRACKING_COOKIE)!;
    expect(signed).toMatch(/\.[A-Za-z0-9_-]{43}$/);
    const real = `tracked.real.${kind}@example.org`;
    expect((await genuine.post('/api/signup.php', form(real))).status).toBe(201);
    expect(await networkOf(real)).toBe('real-net');

    const forged = Buffer.from(JSON.stringify({ network: 'forged-net' })).toString('base64url');
    const cases = [forged, `${forged}.${signed.split('.').at(-1)}`, `${forged}.AAAA`];
    for (const [i, cookie] of cases.entries()) {
      const visitor = t.client();
      visitor.cookies.set(TRACKING_COOKIE, cookie);
      const address = `tracked.${i}.${kind}@example.org`;
      expect((await visitor.post('/api/signup.php', form(address))).status).toBe(201);
      expect(await networkOf(address)).toBeNull();
    }
  });
});
