import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AUTH_COOKIE } from '#common/constants.ts';
import { LIVE_CLOSE, type LiveEvent } from '#common/live.ts';
import { addCredits } from '../credits/ledger.ts';
import { attachLiveChannel, type LiveChannel } from './live-socket.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

/** A browser tab's socket: what it received, and waiting for the next event or the close. */
interface Tab { ws: WebSocket; events: LiveEvent[]; next(): Promise<LiveEvent>; closed: Promise<number> }

describe.each(DATABASE_KINDS)('live channel (%s)', (kind) => {
  let t: TestApp;
  let server: Server;
  let live: LiveChannel;
  let origin: string;
  const opened: WebSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2 });
    server = createServer(getRequestListener(t.app.fetch));
    live = attachLiveChannel({ server, services: t.services, logger: { error: () => {}, info: () => {} }, options: { heartbeatMs: 200, recheckEvery: 1 } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const ws of opened) ws.terminate();
    await live.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const cookieOf = (client: TestClient) => `${AUTH_COOKIE}=${client.cookies.get(AUTH_COOKIE)}`;

  /** Opens a socket; resolves with the HTTP status when the upgrade is refused. */
  function connect(headers: Record<string, string>): Promise<Tab | number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/live`, { headers: { origin, ...headers } });
      opened.push(ws);
      const events: LiveEvent[] = [];
      const waiting: ((e: LiveEvent) => void)[] = [];
      const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
      ws.on('message', (data) => {
        const event = JSON.parse(String(data)) as LiveEvent;
        if (event.type === 'ready') {
          resolve({
            ws, events, closed,
            next: () => new Promise((r, j) => { waiting.push(r); setTimeout(() => j(new Error('no event within 3 s')), 3000); }),
          });
          return;
        }
        events.push(event);
        waiting.shift()?.(event);
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', reject);
    });
  }
  const open = async (client: TestClient) => {
    const tab = await connect({ cookie: cookieOf(client) });
    if (typeof tab === 'number') throw new Error(`socket refused with ${tab}`);
    return tab;
  };

  it('refuses a socket without a session, with an unknown session, or from another origin', async () => {
    const { client } = await signUp(t);
    expect(await connect({})).toBe(403);
    expect(await connect({ cookie: `${AUTH_COOKIE}=not-a-session` })).toBe(403);
    expect(await connect({ cookie: cookieOf(client), origin: 'https://evil.example' })).toBe(403);
    expect(await connect({ cookie: cookieOf(client), origin: 'null' })).toBe(403);
    expect(live.size).toBe(0);
  });

  it('a message reaches every open tab of the recipient, the sender\'s tabs learn of it and of the balance, no one else hears anything', async () => {
    const sender = await signUp(t);
    const recipient = await signUp(t);
    const bystander = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, sender.user.id, 20, 'demo_grant', `live-${sender.user.id}`));
    const [tab1, tab2, senderTab, otherTab] = await Promise.all([open(recipient.client), open(recipient.client), open(sender.client), open(bystander.client)]);

    const arrived = Promise.all([tab1.next(), tab2.next()]);
    const res = await sender.client.post('/api/messages.php', { profile_id: recipient.user.id, text: 'Are you there?' }, { 'idempotency-key': `live-msg-${sender.user.id}` });
    expect(res.status).toBe(201);
    const conversationId = res.body.message.conversation_id ?? (await sender.client.get('/api/chats.php')).body.chats[0].conversation.id;
    const expected = { type: 'message', conversation_id: conversationId, profile_id: sender.user.id };
    expect(await arrived).toEqual([expected, expected]);
    await expect.poll(() => senderTab.events.length).toBe(2);
    expect(senderTab.events).toEqual(expect.arrayContaining([{ type: 'message', conversation_id: conversationId, profile_id: recipient.user.id }, { type: 'credits' }]));
    expect(otherTab.events).toEqual([]);
  });

  it('a like reaches the liked member, with match when it is mutual', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const tabA = await open(a.client);
    const tabB = await open(b.client);
    let next = tabB.next();
    expect((await a.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
    expect(await next).toEqual({ type: 'like', profile_id: a.user.id, match: false });
    next = tabA.next();
    expect((await b.client.post('/api/like.php', { profile_id: a.user.id })).status).toBe(200);
    expect(await next).toEqual({ type: 'like', profile_id: b.user.id, match: true });
  });

  it('log-out closes the sockets of that session only; a session ended elsewhere is noticed at the next check', async () => {
    const member = await signUp(t);
    const second = t.client();
    await second.login(member.user.email, 'correct horse battery');
    const tabOut = await open(member.client);
    const tabStays = await open(second);
    expect((await member.client.post('/api/logout.php')).status).toBe(200);
    expect(await tabOut.closed).toBe(LIVE_CLOSE.unauthorized);
    expect(tabStays.ws.readyState).toBe(WebSocket.OPEN);
    // A session that ends without a log-out (here: its row is gone) is found by the periodic check.
    await t.services.accounts.deleteSession(second.cookies.get(AUTH_COOKIE));
    expect(await tabStays.closed).toBe(LIVE_CLOSE.unauthorized);
  });

  it('limits the open tabs of one member, and shutdown tells every tab to reconnect elsewhere', async () => {
    const member = await signUp(t);
    const tabs = await Promise.all(Array.from({ length: 12 }, () => open(member.client)));
    expect(await connect({ cookie: cookieOf(member.client) })).toBe(429);
    tabs[0].ws.close();
    await tabs[0].closed;
    const replacement = await open(member.client);
    tabs[0] = replacement;
    await live.close();
    expect(await Promise.all(tabs.map((tab) => tab.closed))).toEqual(tabs.map(() => LIVE_CLOSE.restart));
    expect(live.size).toBe(0);
  });
});
