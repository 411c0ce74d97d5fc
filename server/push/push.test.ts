import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import ece from 'http_ece';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { appSecrets, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { createPushService } from './push.service.ts';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A stand-in for a browser push service: HTTPS, records each request, answers with a chosen status. */
function fakePushService() {
  const dir = mkdtempSync(join(tmpdir(), 'amora-push-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'], { stdio: 'ignore' });
  const received: Received[] = [];
  let status = 201;
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end();
    });
  });
  return {
    received,
    setStatus: (s: number) => { status = s; },
    agent: new Agent({ ca: readFileSync(join(dir, 'cert.pem')) }),
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))),
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); rmSync(dir, { recursive: true, force: true }); }),
  };
}

/** A browser's side of a subscription: its key pair and auth secret. */
function browserSubscription(port: number, id: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh, auth,
    json: { endpoint: `https://localhost:${port}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
  };
}

describe.each(DATABASE_KINDS)('web push on %s', (kind) => {
  let t: TestApp;
  let push: ReturnType<typeof fakePushService>;
  let port: number;
  let otherId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 4 });
    push = fakePushService();
    port = await push.listen();
    // The service under test, talking to the stand-in over HTTPS with its certificate trusted: its policy
    // accepts this local push service, its agent connects to loopback (production allows neither).
    t.services.push = createPushService({
      db: t.database.db, clock: t.clock, agent: push.agent, vapid: { subject: 'mailto:push@example.org' },
      endpointPolicy: (url) => url.hostname === 'localhost' && url.port === String(port),
    });
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'demo@example.com'));
    otherId = row.id;
  });
  afterAll(async () => {
    await push.close();
    await t.close();
  });
  beforeEach(() => {
    push.received.length = 0;
    push.setStatus(201);
  });

  it('generates one VAPID key pair, stores it and shows the public key in the settings', async () => {
    const settings = await t.client().get('/api/settings.php');
    const key = settings.body.settings.push_public_key as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const rows = await t.database.db.select().from(appSecrets);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].value).publicKey).toBe(key);
    // Another instance on the same database signs with the same pair.
    const second = createPushService({ db: t.database.db, clock: t.clock });
    expect(await second.publicKey()).toBe(key);
    expect(await t.services.push.publicKey()).toBe(key);
  });

  it('uses the configured keys when the environment gives them', async () => {
    const pair = (await import('web-push')).default.generateVAPIDKeys();
    const configured = createPushService({ db: t.database.db, clock: t.clock, vapid: pair });
    expect(await configured.publicKey()).toBe(pair.publicKey);
  });

  it('stores a subscription, not_subscribed and denied through POST /api/user.php?push=1', async () => {
    const { client, user } = await signUp(t);
    const sub = browserSubscription(port, 'a');
    const res = await client.post('/api/user.php?push=1', { subscription: sub.json });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ push: { state: 'subscribed' } });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.pushState).toBe('subscribed');
    expect(row.pushSubscription).toEqual(sub.json);
    expect((await client.get('/api/push.php')).body.push.state).toBe('subscribed');

    expect((await client.post('/api/user.php?push=1', { subscription: 'denied' })).body.push.state).toBe('denied');
    const [denied] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect([denied.pushState, denied.pushSubscription]).toEqual(['denied', null]);

    expect((await client.post('/api/user.php?push=1', { subscription: false })).body.push.state).toBe('not_subscribed');
  });

  it('refuses a malformed subscription and a visitor without a session, changing nothing', async () => {
    const { client, user } = await signUp(t);
    const bad = await client.post('/api/user.php?push=1', { subscription: { endpoint: 'javascript:alert(1)', keys: { p256dh: 'x', auth: 'y' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('push_subscription_invalid');
    expect(bad.body.error.message).toBe('This browser subscription for notifications is not valid.');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.pushState).toBe('unknown');
    const anon = await t.client().post('/api/user.php?push=1', { subscription: false });
    expect(anon.status).toBe(403);
    expect(anon.body.error.code).toBe('authentication_required');
  });

  it('leaves POST /api/user.php without ?push=1 to the log-in', async () => {
    const res = await t.client().post('/api/user.php', { email: 'demo@example.com', password: 'amora-demo' });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('demo@example.com');
  });

  it('sends an encrypted, VAPID-signed push to the recipient of a new message', async () => {
    const demo = t.client();
    await demo.login();
    const sub = browserSubscription(port, 'demo');
    await demo.post('/api/user.php?push=1', { subscription: sub.json });

    const { client, user } = await signUp(t, { name: 'Pusher' });
    await t.database.db.transaction((tx) => addCredits(tx, user.id, 20, 'demo_grant', `push-${user.id}`));
    const sent = await client.post('/api/messages.php', { profile_id: otherId, text: 'Hello from the test' }, { 'idempotency-key': 'push-msg-0001' });
    expect(sent.status).toBe(201);
    await t.services.events.settle();

    expect(push.received).toHaveLength(1);
    const req = push.received[0];
    expect(req.path).toBe('/push/demo');
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(req.headers.ttl)).toBeGreaterThan(0);
    // VAPID: a JWT for this push service's origin, signed with the key the settings publish.
    const auth = String(req.headers.authorization);
    const match = /^vapid t=([^,]+), k=(.+)$/.exec(auth);
    expect(match).not.toBeNull();
    const [jwt, k] = [match![1], match![2]];
    expect(k).toBe(await t.services.push.publicKey());
    const [h, p, s] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    expect(claims).toMatchObject({ aud: `https://localhost:${port}`, sub: 'mailto:push@example.org' });
    const jwk = { kty: 'EC', crv: 'P-256', x: Buffer.from(k, 'base64url').subarray(1, 33).toString('base64url'), y: Buffer.from(k, 'base64url').subarray(33).toString('base64url') };
    const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
    expect(ok).toBe(true);
    // Only the browser's keys open the payload.
    const plain = ece.decrypt(req.body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth.toString('base64url') });
    const payload = JSON.parse(plain.toString('utf8'));
    expect(payload).toEqual({
      title: 'New message from Pusher', body: 'Hello from the test',
      checkUrl: `/chats/${sent.body.message.conversation_id}`, openUrl: `/chats/${sent.body.message.conversation_id}`, tag: `chat-${sent.body.message.conversation_id}`,
    });
  });

  it('sends a push for a new like, in the recipient\'s language', async () => {
    const liked = await signUp(t, { name: 'Gemocht' });
    await liked.client.put('/api/user.php', { language: 'nl' });
    const sub = browserSubscription(port, 'liked');
    await liked.client.post('/api/user.php?push=1', { subscription: sub.json });
    const liker = await signUp(t, { name: 'Fan' });
    expect((await liker.client.post('/api/like.php', { profile_id: liked.user.id })).status).toBe(200);
    await t.services.events.settle();
    expect(push.received).toHaveLength(1);
    const payload = JSON.parse(ece.decrypt(push.received[0].body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth.toString('base64url') }).toString());
    expect(payload).toMatchObject({ title: 'Fan vindt je leuk', checkUrl: '/likes', openUrl: '/likes' });
  });

  it('sends nothing to members who are not subscribed', async () => {
    const liked = await signUp(t);
    await liked.client.post('/api/user.php?push=1', { subscription: false });
    const liker = await signUp(t);
    await liker.client.post('/api/like.php', { profile_id: liked.user.id });
    await t.services.events.settle();
    expect(push.received).toHaveLength(0);
  });

  it('clears a subscription the push service answers 410 Gone for, and keeps it on other failures', async () => {
    const liked = await signUp(t);
    await liked.client.post('/api/user.php?push=1', { subscription: browserSubscription(port, 'gone').json });
    push.setStatus(500);
    expect(await t.services.push.notify(liked.user.id, { title: 'x', body: 'y', checkUrl: '/', openUrl: '/' })).toBe('failed');
    expect((await liked.client.get('/api/push.php')).body.push.state).toBe('subscribed');
    push.setStatus(410);
    expect(await t.services.push.notify(liked.user.id, { title: 'x', body: 'y', checkUrl: '/', openUrl: '/' })).toBe('gone');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, liked.user.id));
    expect([row.pushState, row.pushSubscription]).toEqual(['not_subscribed', null]);
    expect(push.received).toHaveLength(2);
  });

  it('records the last activity on the page-hidden beacon and answers 204 to anyone', async () => {
    const { client, user } = await signUp(t);
    t.clock.set('2026-06-02T08:00:00Z');
    const res = await client.request('POST', '/api/page-hidden.php', {});
    expect(res.status).toBe(204);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.lastActiveAt?.toISOString()).toBe('2026-06-02T08:00:00.000Z');
    expect((await t.client().request('POST', '/api/page-hidden.php', {})).status).toBe(204);
  });
});
