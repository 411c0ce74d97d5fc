import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AUTH_COOKIE } from '#common/constants.ts';
import { conversations, likes, messages, orders, sessions, users } from '../db/schema.ts';
import { seedDemoSite } from '../seed/seed.ts';
import { MIGRATIONS_DIR } from '../paths.ts';
import { attachLiveChannel, type LiveChannel } from '../live/live-socket.ts';
import type { Site } from '../settings/settings.service.ts';
import { createTestApp, DATABASE_KINDS, freshDatabase, signUp, testClock, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

/**
 * The attack: a session made on site A (localhost) was accepted with `Host: siteb.test`, where the member paid site
 * B's prices and got site B's free messages. A session belongs to the site it was made on (decision 051): on another
 * site it is no session at all, for the API (403 authentication_required, the spec's answer without a session), the
 * pages (to log in there) and the live socket (refused), and nothing changes. The two sites here are of one company
 * and share their members (member_resell on both), the most open setting: even then accounts and sessions stay apart.
 */
describe.each(DATABASE_KINDS)('a session belongs to the site it was made on (%s)', (kind) => {
  let t: TestApp;
  let siteB: Site;
  let member: Awaited<ReturnType<typeof signUp>>;
  /** Site A's session cookie, sent to site B. */
  let onB: TestClient;
  let server: Server;
  let live: LiveChannel;
  let port: number;
  let keys = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2, pages: true });
    // Site B is cheaper: a message costs 1 credit and a new member has 10 free messages there; visitors may not search.
    siteB = await t.services.settings.addSite({ domain: 'siteb.test', name: 'Site B', messageCredits: 1, freeMessages: 10, loggedOutSearch: 'none' });
    member = await signUp(t, { country: 'NL' });
    onB = t.client({ host: 'siteb.test' });
    for (const [name, value] of member.client.cookies) onB.cookies.set(name, value);
    server = createServer(getRequestListener(t.app.fetch));
    live = attachLiveChannel({ server, services: t.services, logger: { error: () => {}, info: () => {} } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  }, 300_000);
  afterAll(async () => {
    await live.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  }, 60_000);

  const key = () => `tenant-${kind}-${++keys}-0123456789`;
  const expectNoSession = (res: { status: number; body: { error?: { code: string; message: string } } }, call: string) => {
    expect(res.status, call).toBe(403);
    expect(res.body.error, call).toMatchObject({ code: 'authentication_required', message: expect.any(String) });
  };

  /** What the member has: balance, messages, likes, orders, sessions. */
  const state = async (userId: number) => ({
    credits: (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, userId)))[0].c,
    messages: await t.database.db.$count(messages, eq(messages.senderId, userId)),
    conversations: await t.database.db.$count(conversations),
    likes: await t.database.db.$count(likes, eq(likes.likerId, userId)),
    orders: await t.database.db.$count(orders, eq(orders.userId, userId)),
    sessions: await t.database.db.$count(sessions, eq(sessions.userId, userId)),
  });

  it('the attack\'s calls with site A\'s session on site B are answered as without a session, and change nothing', async () => {
    const before = await state(member.user.id);
    const packages = (await member.client.get('/api/packages.php')).body.packages as { id: number }[];

    expectNoSession(await onB.get('/api/user.php'), 'GET /api/user.php');
    expectNoSession(await onB.post('/api/messages.php', { profile_id: t.demoUserId, text: 'Hello from site B' }, { 'idempotency-key': key() }), 'POST /api/messages.php');
    expectNoSession(await onB.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': key() }), 'POST /api/order.php');
    expectNoSession(await onB.get('/api/members.php?gender=female'), 'GET /api/members.php');
    expectNoSession(await onB.post('/api/like.php', { profile_id: t.demoUserId }), 'POST /api/like.php');
    expectNoSession(await onB.get('/api/likes.php'), 'GET /api/likes.php');
    expectNoSession(await onB.get('/api/chats.php'), 'GET /api/chats.php');

    expect(await state(member.user.id)).toEqual(before);
    // Presented elsewhere, the session is not ended: on its own site it still works.
    expect((await member.client.get('/api/user.php')).body.user.id).toBe(member.user.id);
    expect(await t.services.accounts.sessionUserId(member.client.cookies.get(AUTH_COOKIE), t.siteId)).toBe(member.user.id);
    expect(await t.services.accounts.sessionUserId(member.client.cookies.get(AUTH_COOKIE), siteB.id)).toBeNull();
  });

  it('on site B\'s pages the member is not signed in: member pages send them to log in there', async () => {
    const page = (host: string, path: string) => t.app.request(`http://${host}${path}`, {
      headers: { host, cookie: `${AUTH_COOKIE}=${member.client.cookies.get(AUTH_COOKIE)}` },
    }, { incoming: { socket: { remoteAddress: '203.0.113.7' } } });
    for (const path of ['/chats', '/credits', '/likes', '/profile']) {
      const res = await page('siteb.test', path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`/login?redirect=${encodeURIComponent(path)}`);
    }
    // On site A the same cookie opens them.
    expect((await page('localhost', '/chats')).status).toBe(200);
  }, 120_000);

  it('the live socket refuses site A\'s session on site B and opens it on site A', async () => {
    const upgrade = (host: string) => new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, {
        headers: { host, origin: `http://${host}`, cookie: `${AUTH_COOKIE}=${member.client.cookies.get(AUTH_COOKIE)}` },
      });
      ws.on('open', () => { ws.terminate(); resolve(101); });
      ws.on('unexpected-response', (_req, res) => { ws.terminate(); resolve(res.statusCode ?? 0); });
      ws.on('error', reject);
    });
    expect(await upgrade('siteb.test')).toBe(403);
    expect(await upgrade('localhost')).toBe(101);
  });

  it('an account signs in only on its own site; the same address may open an account of its own on site B', async () => {
    const email = member.user.email;
    const password = 'correct horse battery';
    const fresh = t.client({ host: 'siteb.test' });
    const login = await fresh.post('/api/user.php', { email, password });
    expect(login.status).toBe(401);
    expect(login.body.error.code).toBe('login_failed');
    expect(fresh.cookies.has(AUTH_COOKIE)).toBe(false);
    // Site B knows no such account: no reset mail for it there.
    expect((await fresh.post('/api/password-reset.php', { email })).body.error.code).toBe('email_not_found');

    // A sign-up on site B with the address is a new member of site B, who pays site B's prices there.
    const joined = await fresh.post('/api/signup.php', { email, name: 'Bea', password, date_of_birth: '1990-04-12', gender: 'female', country: 'NL' });
    expect(joined.status).toBe(201);
    const memberOfB = joined.body.user.id as number;
    expect(memberOfB).not.toBe(member.user.id);
    expect((await t.database.db.select({ siteId: users.siteId }).from(users).where(eq(users.id, memberOfB)))[0].siteId).toBe(siteB.id);
    await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, memberOfB));
    const sent = await fresh.post('/api/messages.php', { profile_id: t.demoUserId, text: 'Hello from site B' }, { 'idempotency-key': key() });
    expect(sent.status).toBe(201);
    // Site B's free messages are site B's members': this one has 9 left.
    expect(sent.body).toMatchObject({ credits: 0, free_messages_left: 9 });

    // Site A's member, on site A, has none of them: site A's price (5 credits, no free messages) holds.
    const onA = await member.client.post('/api/messages.php', { profile_id: t.demoUserId, text: 'Hello from site A' }, { 'idempotency-key': key() });
    expect(onA.status).toBe(402);
    expect(onA.body.error).toMatchObject({ code: 'insufficient_credits' });
    // Each signs in on their own site with the same address and password.
    expect((await t.client().post('/api/user.php', { email, password })).body.user.id).toBe(member.user.id);
    expect((await t.client({ host: 'siteb.test' }).post('/api/user.php', { email, password })).body.user.id).toBe(memberOfB);
  });
});

describe.each(DATABASE_KINDS)('sessions made before sessions had a site (%s)', (kind) => {
  it('belong to their member\'s site after migration 0024, which then requires a site of every session', async () => {
    const database = await freshDatabase(kind);
    try {
      const { db } = database;
      const { siteId, demoUserId } = await seedDemoSite(db, { photosDir: join(tmpdir(), `amora-0024-${kind}`), clock: testClock(), profileCount: 0 });
      // The tables as 0023 left them, with a session of the demo member.
      await db.execute(sql`drop index users_site_email_unique`);
      await db.execute(sql`alter table sessions drop column site_id`);
      await db.execute(sql`create unique index users_email_unique on users (lower(email))`);
      await db.execute(sql`insert into sessions (id, user_id, expires_at) values ('before-0024', ${demoUserId}, now() + interval '1 day')`);

      for (const statement of readFileSync(join(MIGRATIONS_DIR, '0024_sessions_belong_to_their_site.sql'), 'utf8').split('--> statement-breakpoint')) {
        await db.execute(sql.raw(statement));
      }
      expect(await db.select({ siteId: sessions.siteId }).from(sessions).where(eq(sessions.id, 'before-0024'))).toEqual([{ siteId }]);
      await expect(db.execute(sql`insert into sessions (id, user_id, expires_at) values ('no-site', ${demoUserId}, now())`)).rejects.toThrow();
    } finally {
      await database.drop();
    }
  });
});
