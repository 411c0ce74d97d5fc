import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { AUTH_COOKIE } from '#common/constants.ts';
import type { LiveEvent } from '#common/live.ts';
import { freePort, prepareServerDatabase, startServer } from '../../tests/helpers/server-process.ts';

/**
 * Two real server processes on one PostgreSQL database and one Redis, as behind a load balancer:
 * a like sent through instance A reaches the liked member's tab connected to instance B.
 * (PGlite is one process's database, so several instances always mean PostgreSQL.)
 */
describe.skipIf(!inject('pgTemplate') || !inject('redisUrl'))('live channel across two instances (postgres + redis)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'amora-live-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const prepared = await prepareServerDatabase('postgres', dataDir);
    cleanups.push(prepared.cleanup);
    // Its own prefix: other test runs on this Redis use the same member ids.
    const prefix = `test:${randomUUID()}:`;
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const server = startServer({
        ...prepared.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir,
        REDIS_URL: inject('redisUrl') ?? '', REDIS_PREFIX: prefix, LOG_LEVEL: 'info',
        // Each member signs up from its own address (sign-up limit per address).
        TRUST_PROXY: '1',
      });
      cleanups.push(() => { server.child.kill('SIGKILL'); });
      await server.ready;
      ports.push(port);
    }
  }, 60_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const base = (i: number) => `http://127.0.0.1:${ports[i]}`;
  let signups = 0;
  async function signUp(instance: number): Promise<{ id: number; cookie: string }> {
    const n = ++signups;
    const res = await fetch(`${base(instance)}/api/signup.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.0.${n}` },
      body: JSON.stringify({ email: `live${n}.${Date.now()}@example.org`, name: `Live${n}`, password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL' }),
    });
    expect(res.status).toBe(201);
    const session = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith(`${AUTH_COOKIE}=`))!;
    return { id: ((await res.json()) as { user: { id: number } }).user.id, cookie: session };
  }

  function openTab(instance: number, cookie: string): Promise<{ next(): Promise<LiveEvent>; ws: WebSocket }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${ports[instance]}/api/live`, { headers: { origin: base(instance), cookie } });
      cleanups.push(() => ws.terminate());
      const waiting: ((e: LiveEvent) => void)[] = [];
      ws.on('message', (data) => {
        const event = JSON.parse(String(data)) as LiveEvent;
        if (event.type === 'ready') resolve({ ws, next: () => new Promise((r, j) => { waiting.push(r); setTimeout(() => j(new Error('no event within 5 s')), 5000); }) });
        else waiting.shift()?.(event);
      });
      ws.on('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
      ws.on('error', reject);
    });
  }

  it('an event caused on one instance reaches the member\'s tabs on both', async () => {
    const liker = await signUp(0);
    const liked = await signUp(1);
    const onB = await openTab(1, liked.cookie);
    const onA = await openTab(0, liked.cookie);
    const arrived = Promise.all([onB.next(), onA.next()]);
    const res = await fetch(`${base(0)}/api/like.php`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie: liker.cookie }, body: JSON.stringify({ profile_id: liked.id }),
    });
    expect(res.status).toBe(200);
    const expected = { type: 'like', profile_id: liker.id, match: false };
    expect(await arrived).toEqual([expected, expected]);
  });

  it('log-out on one instance closes the session\'s tab on the other', async () => {
    const member = await signUp(0);
    const tab = await openTab(1, member.cookie);
    const closed = new Promise<number>((resolve) => tab.ws.on('close', (code) => resolve(code)));
    const res = await fetch(`${base(0)}/api/logout.php`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: member.cookie }, body: '{}' });
    expect(res.status).toBe(200);
    expect(await closed).toBe(4401);
  });
});
