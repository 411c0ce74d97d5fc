import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AUTH_COOKIE } from '#common/constants.ts';
import { attachLiveChannel, type LiveChannel } from '../live/live-socket.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * Issue 24 item 8: the Origin check compared hosts only, so `Origin: https://localhost:3300` passed on an http
 * site (a page of another scheme or port on the same host is another origin, and only same-site). Now an unsafe
 * API request, a page's form post and the live socket's upgrade must name the site's canonical origin or the origin
 * the request was addressed to (its Host, with the scheme of its connection or of the trusted proxy), scheme, host
 * and port alike (docs/decisions/050).
 */
describe.each(DATABASE_KINDS)('the Origin must match scheme, host and port (%s)', (kind) => {
  /** Behind one trusted proxy, without PUBLIC_URL: the canonical origin of the localhost site is http://localhost:3000. */
  let t: TestApp;
  /** PUBLIC_URL names the public origin; the proxy in front passes its own address as Host. */
  let pub: TestApp;
  let cookie: string;
  /** A member of amora.example: a session is one only on its own site (decision 051). */
  let amoraCookie: string;
  let pubCookie: string;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2, pages: true, env: { TRUST_PROXY: '1' } });
    pub = await createTestApp(kind, { profiles: 0, pages: true, env: { TRUST_PROXY: '1', PUBLIC_URL: 'https://dating.example' } });
    // A second brand on its own domain, reached through the TLS proxy.
    await t.services.settings.addSite({ domain: 'amora.example' });
    cookie = `${AUTH_COOKIE}=${await t.services.accounts.createSession((await signUp(t)).user.id, t.siteId, 'test')}`;
    const amora = await signUp(t, {}, { host: 'amora.example' });
    amoraCookie = `${AUTH_COOKIE}=${await t.services.accounts.createSession(amora.user.id, amora.actor.siteId, 'test')}`;
    pubCookie = `${AUTH_COOKIE}=${await pub.services.accounts.createSession((await signUp(pub)).user.id, pub.siteId, 'test')}`;
  }, 300_000);
  afterAll(async () => {
    await t.services.events.settle();
    await pub.services.events.settle();
    await t.close();
    await pub.close();
  }, 60_000);

  const send = (app: TestApp, method: string, path: string, headers: Record<string, string>, body?: string) => app.app.request(`http://${headers.host}${path}`, {
    method, headers: { 'content-type': 'application/json', ...headers }, body,
  }, { incoming: { socket: { remoteAddress: `198.51.100.${++n % 250}` } } });

  /** Every unsafe method the API has, each as a member would send it. */
  const unsafe = (app: TestApp, session: string, headers: Record<string, string>) => Promise.all([
    send(app, 'PUT', '/api/user.php', { cookie: session, ...headers }, JSON.stringify({ language: 'en' })),
    send(app, 'POST', '/api/like.php', { cookie: session, ...headers }, JSON.stringify({ profile_id: app.demoUserId })),
    send(app, 'DELETE', '/api/like.php', { cookie: session, ...headers }, JSON.stringify({ profile_id: app.demoUserId })),
    send(app, 'PATCH', '/api/user.php', { cookie: session, ...headers }, '{}'),
  ]);
  const expectRefused = async (responses: Response[], label: string) => {
    for (const res of responses) {
      expect(res.status, label).toBe(403);
      expect((await res.json()).error.code, label).toBe('forbidden');
    }
  };
  /** Past the Origin check: whatever the endpoint then answers, it is not the check's refusal. */
  const expectAccepted = async (responses: Response[], label: string) => {
    for (const res of responses) {
      const body = await res.text();
      expect(body, label).not.toContain('"forbidden"');
      expect(res.status, label).toBeLessThan(500);
    }
  };

  it('the API: another scheme, port or host is refused; the site\'s own origin is accepted', async () => {
    const direct = { host: 'localhost:3000' };
    for (const origin of ['https://localhost:3000', 'http://localhost:3001', 'http://localhost', 'http://127.0.0.1:3000', 'http://evil.localhost:3000', 'http://amora.example']) {
      await expectRefused(await unsafe(t, cookie, { ...direct, origin }), origin);
    }
    await expectAccepted(await unsafe(t, cookie, { ...direct, origin: 'http://localhost:3000' }), 'own origin');
    await expectAccepted(await unsafe(t, cookie, direct), 'no Origin (not a browser)');

    // A site on its own domain behind the TLS proxy: https only, on the default port.
    const proxied = { host: 'amora.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
    for (const origin of ['http://amora.example', 'https://amora.example:8443', 'https://localhost:3000', 'https://evil.example']) {
      await expectRefused(await unsafe(t, amoraCookie, { ...proxied, origin }), `proxied ${origin}`);
    }
    await expectAccepted(await unsafe(t, amoraCookie, { ...proxied, origin: 'https://amora.example' }), 'proxied own origin');

    // PUBLIC_URL: the proxy passes its own address as Host; the browser names the public origin.
    const behind = { host: '127.0.0.1:3000', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
    for (const origin of ['http://dating.example', 'https://dating.example:444', 'https://www.dating.example', 'https://evil.example']) {
      await expectRefused(await unsafe(pub, pubCookie, { ...behind, origin }), `public ${origin}`);
    }
    await expectAccepted(await unsafe(pub, pubCookie, { ...behind, origin: 'https://dating.example' }), 'public origin');
  }, 120_000);

  it('page form posts: refused from another origin; from the site\'s own, the action runs (also behind the proxy)', async () => {
    const logIn = (app: TestApp, headers: Record<string, string>) => send(app, 'POST', '/login', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, 'email=demo%40example.com&password=amora-demo');
    for (const origin of ['https://localhost:3000', 'http://localhost:3001', 'http://evil.localhost:3000']) {
      const res = await logIn(t, { host: 'localhost:3000', origin });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('set-cookie'), origin).toBeNull();
    }
    const own = await logIn(t, { host: 'localhost:3000', origin: 'http://localhost:3000' });
    expect(own.status).toBe(302);
    expect(own.headers.get('set-cookie')).toContain(`${AUTH_COOKIE}=`);

    // Behind the proxy React Router, which compares the Origin with the request's URL itself, sees the action on the
    // origin the browser named (it answered 400 "Bad Request" to every form there, its URL being http://127.0.0.1:3000).
    const behind = { host: '127.0.0.1:3000', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.10' };
    for (const origin of ['http://dating.example', 'https://evil.example']) expect((await logIn(pub, { ...behind, origin })).status, origin).toBe(403);
    const proxied = await logIn(pub, { ...behind, origin: 'https://dating.example' });
    expect(proxied.status).toBe(302);
    expect(proxied.headers.get('location')).toBe('/members');
    expect(proxied.headers.get('set-cookie')).toMatch(new RegExp(`${AUTH_COOKIE}=[^;]+;.*Secure`));
  }, 120_000);

  describe('the live socket', () => {
    let server: Server;
    let live: LiveChannel;
    let port: number;
    beforeAll(async () => {
      server = createServer(getRequestListener(t.app.fetch));
      live = attachLiveChannel({ server, services: t.services, logger: { error: () => {}, info: () => {} }, trustProxy: 1 });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => {
      await live.close();
      await new Promise((resolve) => server.close(resolve));
    });

    /** The upgrade's answer: 101 when the socket opened, else the refusal's status. */
    const upgrade = (headers: Record<string, string>) => new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { cookie, ...headers } });
      ws.on('open', () => { ws.terminate(); resolve(101); });
      ws.on('unexpected-response', (_req, res) => { ws.terminate(); resolve(res.statusCode ?? 0); });
      ws.on('error', reject);
    });

    it('refuses another scheme, port or host and opens for the site\'s own origin', async () => {
      const own = `http://127.0.0.1:${port}`;
      for (const origin of [`https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, `http://localhost:${port}`, 'http://evil.example', 'null']) {
        expect(await upgrade({ origin }), origin).toBe(403);
      }
      expect(await upgrade({ origin: own })).toBe(101);
      // A site on its own domain behind the TLS proxy.
      const proxied = { host: 'amora.example', 'x-forwarded-proto': 'https', cookie: amoraCookie };
      expect(await upgrade({ ...proxied, origin: 'http://amora.example' })).toBe(403);
      expect(await upgrade({ ...proxied, origin: 'https://amora.example:8443' })).toBe(403);
      expect(await upgrade({ ...proxied, origin: 'https://amora.example' })).toBe(101);
    }, 60_000);
  });
});
