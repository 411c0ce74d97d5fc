import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIE, LANDER_COOKIE } from '#common/constants.ts';
import { LOCALE_COOKIE } from '#common/languages.ts';
import { pageBuild, type PageRoute } from '../../tests/helpers/page-build.ts';
import { createTestApp, DATABASE_KINDS, signedInCookie, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * Issue 24 item 9: /transactions, /profile, /chats and their .data answers carried no Cache-Control, so a shared
 * cache or the browser's back/forward history could keep a member's payments and chats. Every page answer to a
 * signed-in member (read from app/routes.ts, so a new page is walked too), its .data answer and its redirects say
 * `private, no-store`; the pages a visitor sees keep their caching, kept per Cookie header.
 */
describe.each(DATABASE_KINDS)('private pages are never cached (%s)', (kind) => {
  let t: TestApp;
  let routes: PageRoute[];
  let member: Record<string, string>;
  let profileId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, pages: true });
    routes = (await pageBuild()).routes;
    member = await signedInCookie(t);
    profileId = t.demoUserId;
  }, 300_000);
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  }, 300_000);

  const get = (path: string, headers: Record<string, string>) => t.app.request(`http://localhost${path}`, { headers: { host: 'localhost', ...headers } });

  /** A route's path with its parameters filled in, with and without the optional ones. */
  function pathsOf(route: PageRoute): string[] {
    const fill = (optional: boolean) => `/${route.path.split('/').map((segment) => {
      if (segment === '*') return 'no/such/page';
      if (!segment.startsWith(':')) return segment;
      if (segment.endsWith('?') && !optional) return '';
      return { id: String(profileId), type: 'received', slug: 'women', token: 'no-such-token', reference: 'N-0000-0000', ref: 'tr_none', paymentmethod: 'ideal' }[segment.replace(/^:|\?$/g, '')] ?? 'x';
    }).filter(Boolean).join('/')}`;
    return [...new Set([fill(false), fill(true)])];
  }
  const dataPath = (path: string) => (path === '/' ? '/_.data' : `${path}.data`);

  it('walks every page of app/routes.ts as a member: each answer and its .data answer says private, no-store', async () => {
    expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['transactions', 'profile', 'chats', 'chats-id', 'members', 'index', 'not-found']));
    const walked: string[] = [];
    for (const route of routes) {
      for (const path of pathsOf(route)) {
        for (const target of [path, dataPath(path)]) {
          const res = await get(target, member);
          await res.arrayBuffer();
          expect(res.status, target).toBeLessThan(500);
          expect(res.headers.get('cache-control'), `${target} (${res.status})`).toBe('private, no-store');
          expect(res.headers.get('vary') ?? '', target).toMatch(/\bCookie\b/);
          walked.push(target);
        }
      }
    }
    // The pages named in the issue, among the ones walked.
    expect(walked).toEqual(expect.arrayContaining(['/transactions', `/transactions/${profileId}`, '/profile', '/chats', '/transactions.data', '/profile.data', '/chats.data']));
  }, 300_000);

  it('a log-in answer, which sets the session cookie, is private too', async () => {
    const res = await t.app.request('http://localhost/login', {
      method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=demo%40example.com&password=amora-demo',
    }, { incoming: { socket: { remoteAddress: '192.0.2.77' } } });
    expect(res.status).toBe(302);
    expect(res.headers.get('set-cookie')).toContain(`${AUTH_COOKIE}=`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  }, 300_000);

  it('the public pages a visitor sees keep their caching, kept per Cookie header; a member on the same address gets a private answer', async () => {
    // A visitor who came in through a lander before: their first lander is already kept (a first visit's answer sets
    // it, and is theirs alone: the next test).
    const visitor = { cookie: `${LOCALE_COOKIE}=en; ${LANDER_COOKIE}=gallery` };
    const publicPaths = ['/', '/pages/terms', '/pages/privacy', '/pages/faq', '/login', '/signup', '/pricing', '/complaints', '/landers/gallery', `/members/${profileId}/landing`];
    for (const path of publicPaths) {
      for (const target of [path, dataPath(path)]) {
        const res = await get(target, visitor);
        await res.arrayBuffer();
        expect(res.status, target).toBe(200);
        expect(res.headers.get('cache-control'), target).toBeNull();
        expect(res.headers.get('vary') ?? '', target).toMatch(/\bCookie\b/);
        expect(res.headers.get('set-cookie'), target).toBeNull();
        const own = await get(target, member);
        await own.arrayBuffer();
        expect(own.headers.get('cache-control'), target).toBe('private, no-store');
      }
    }
  }, 300_000);

  it('a visitor\'s first lander answers with its first-touch cookie, and no shared cache keeps that answer', async () => {
    for (const target of ['/landers/gallery', dataPath('/landers/gallery'), `/members/${profileId}/landing`]) {
      const res = await get(target, { cookie: `${LOCALE_COOKIE}=en` });
      await res.arrayBuffer();
      expect(res.status, target).toBe(200);
      expect(res.headers.get('set-cookie'), target).toContain(`${LANDER_COOKIE}=`);
      expect(res.headers.get('cache-control'), target).toBe('private, no-store');
    }
  }, 300_000);
});
