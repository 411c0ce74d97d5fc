import { createECDH, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { createPublicOnlyAgent, type Resolver } from '../infra/public-address.ts';
import { createPushService, type PushService } from '../push/push.service.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const locale = (lang: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../locales/${lang}.json`), 'utf8')) as { errors: Record<string, string> };

/**
 * A listener on this machine that a server-side request forgery would reach: HTTPS with a certificate
 * for fcm.googleapis.com (trusted by the test agents), counting every TCP connection made to it.
 */
function localTarget() {
  const dir = mkdtempSync(join(tmpdir(), 'amora-ssrf-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=fcm.googleapis.com',
    '-addext', 'subjectAltName=DNS:fcm.googleapis.com', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'], { stdio: 'ignore' });
  const ca = readFileSync(join(dir, 'cert.pem'));
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: ca }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201).end());
  });
  const state = { connections: 0 };
  server.on('connection', () => { state.connections++; });
  return {
    ca, state,
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); rmSync(dir, { recursive: true, force: true }); }),
  };
}

/** Keys as a browser makes them: a P-256 public key and a 16-byte auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const payload = { title: 't', body: 'b', checkUrl: '/likes', openUrl: '/likes' };

describe.each(DATABASE_KINDS)('push endpoints cannot reach private addresses (%s)', (kind) => {
  let t: TestApp;
  let target: ReturnType<typeof localTarget>;
  let port: number;
  let production: PushService;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2 });
    production = t.services.push;
    target = localTarget();
    port = await target.listen();
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });
  beforeEach(() => {
    t.services.push = production;
    target.state.connections = 0;
  });

  const stored = async (userId: number) => {
    const [row] = await t.database.db.select({ state: users.pushState, subscription: users.pushSubscription }).from(users).where(eq(users.id, userId));
    return row;
  };

  it('refuses endpoints that are not https on a known push service, answering 400 and storing nothing', async () => {
    const { client, user } = await signUp(t);
    const keys = browserKeys();
    const endpoints = [
      `https://127.0.0.1:${port}/x`,
      'https://169.254.169.254/latest/meta-data/',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://evil.example/push/abc',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://2130706433/x',
      'https://localhost/x',
      'https://fcm.googleapis.com.evil.example/fcm/send/abc',
      'https://evilfcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com./fcm/send/abc',
      'https://user:secret@fcm.googleapis.com/fcm/send/abc',
      `https://fcm.googleapis.com:${port}/fcm/send/abc`,
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://push.services.mozilla.com.evil.example/wpush/v2/abc',
      'ftp://fcm.googleapis.com/fcm/send/abc',
      'not a url',
    ];
    for (const endpoint of endpoints) {
      const res = await client.post('/api/user.php?push=1', { subscription: { endpoint, keys } });
      expect(res.status, endpoint).toBe(400);
      expect(['push_subscription_invalid', 'push_service_unknown'], endpoint).toContain(res.body.error.code);
      expect(res.body.error.message, endpoint).toBe(locale('en').errors[res.body.error.code]);
    }
    expect(await stored(user.id)).toEqual({ state: 'unknown', subscription: null });
    expect(target.state.connections).toBe(0);
  });

  it('refuses malformed keys on a real push service endpoint', async () => {
    const { client, user } = await signUp(t);
    const good = browserKeys();
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    const bad = [
      { ...good, p256dh: good.p256dh.slice(0, -2) },
      { ...good, auth: randomBytes(15).toString('base64url') },
      { ...good, auth: good.auth.replace(/.$/, '+') },
      { ...good, p256dh: Buffer.alloc(65, 4).toString('base64url') },
      { p256dh: good.p256dh },
    ];
    for (const keys of bad) {
      const res = await client.post('/api/user.php?push=1', { subscription: { endpoint, keys } });
      expect(res.status, JSON.stringify(keys)).toBe(400);
      expect(res.body.error.code).toBe('push_subscription_invalid');
    }
    expect(await stored(user.id)).toEqual({ state: 'unknown', subscription: null });
  });

  it('names an unknown push service in the member\'s language', async () => {
    const { client } = await signUp(t);
    await client.put('/api/user.php', { language: 'de' });
    const res = await client.post('/api/user.php?push=1', { subscription: { endpoint: 'https://evil.example/push/abc', keys: browserKeys() } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'push_service_unknown', message: locale('de').errors.push_service_unknown });
  });

  it('accepts the endpoints real browsers use', async () => {
    const { client, user } = await signUp(t);
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dX1a:APA91bH-token',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-token',
      'https://web.push.apple.com/QGxT-token',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
    ]) {
      const keys = browserKeys();
      const res = await client.post('/api/user.php?push=1', { subscription: { endpoint, keys } });
      expect(res.status, endpoint).toBe(200);
      expect(await stored(user.id)).toEqual({ state: 'subscribed', subscription: { endpoint, keys } });
    }
  });

  it('does not connect to a subscription stored before the rules (an IP address); it is cleared and the like still works', async () => {
    // The production defaults (known push services, public addresses only), with the log captured.
    const logged: string[] = [];
    t.services.push = createPushService({ db: t.database.db, clock: t.clock, logger: { error: (m: string) => { logged.push(m); } } });
    const liked = await signUp(t);
    await t.database.db.update(users).set({
      pushState: 'subscribed', pushSubscription: { endpoint: `https://127.0.0.1:${port}/x`, keys: browserKeys() },
    }).where(eq(users.id, liked.user.id));
    const liker = await signUp(t);
    expect((await liker.client.post('/api/like.php', { profile_id: liked.user.id })).status).toBe(200);
    await t.services.events.settle();
    expect(target.state.connections).toBe(0);
    expect(await stored(liked.user.id)).toEqual({ state: 'not_subscribed', subscription: null });
    expect(logged).toEqual([expect.stringContaining('not at a known push service')]);
  });

  describe('at connect time (a push service name that resolves to a private address)', () => {
    const errors: string[] = [];
    const logger = { error: (m: string) => { errors.push(m); } };
    // Endpoints carry the test listener's port, so this policy allows fcm.googleapis.com on it; the
    // name itself is resolved by the injected resolver.
    const policy = (url: URL) => url.hostname === 'fcm.googleapis.com' && url.port === String(port);
    const to = (addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

    async function subscribed(service: PushService) {
      t.services.push = service;
      const liked = await signUp(t);
      const res = await liked.client.post('/api/user.php?push=1', { subscription: { endpoint: `https://fcm.googleapis.com:${port}/fcm/send/abc`, keys: browserKeys() } });
      expect(res.status).toBe(200);
      return liked;
    }

    it('reaches the listener when the address is allowed (the control)', async () => {
      const lookup = (_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => (o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4));
      const service = createPushService({ db: t.database.db, clock: t.clock, endpointPolicy: policy, agent: new Agent({ ca: target.ca, lookup } as object) });
      const liked = await subscribed(service);
      expect(await service.notify(liked.user.id, payload)).toBe('sent');
      expect(target.state.connections).toBe(1);
    });

    for (const addresses of [['127.0.0.1'], ['8.8.8.8', '127.0.0.1'], ['::ffff:127.0.0.1'], ['::1'], ['10.1.2.3'], ['169.254.169.254'], ['100.64.0.1'], ['fd00::1'], ['0.0.0.0']]) {
      it(`refuses ${addresses.join(', ')} without connecting, never throws, logs and keeps the subscription`, async () => {
        errors.length = 0;
        const agent = createPublicOnlyAgent({ ca: target.ca, resolve: to(addresses) });
        const service = createPushService({ db: t.database.db, clock: t.clock, endpointPolicy: policy, agent, logger });
        const liked = await subscribed(service);
        // Through a like, as an attacker would trigger it: the like succeeds, nothing connects.
        const liker = await signUp(t);
        expect((await liker.client.post('/api/like.php', { profile_id: liked.user.id })).status).toBe(200);
        await t.services.events.settle();
        await expect(service.notify(liked.user.id, payload)).resolves.toBe('refused');
        expect(target.state.connections).toBe(0);
        expect(errors.some((e) => e.includes('refused') && !e.includes('/fcm/send/abc'))).toBe(true);
        expect((await stored(liked.user.id)).state).toBe('subscribed');
      });
    }
  });
});
