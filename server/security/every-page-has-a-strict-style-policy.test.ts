import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALE_COOKIE } from '#common/languages.ts';
import { MAIL_PART_POLICY } from '../app.ts';
import { pageBuild, type PageRoute } from '../../tests/helpers/page-build.ts';
import { createTestApp, DATABASE_KINDS, signedInCookie, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * Issue 24 item 11: style-src allowed 'unsafe-inline', so an injected style attribute or element would have applied
 * (CSS can read attribute values out of a page and hide or fake parts of it). Every answer's Content-Security-Policy
 * now allows styles from files and from elements with the response's nonce only (docs/decisions/052). Every page of
 * app/routes.ts (read from it, so a new page is walked too), as a member and as a visitor, and every page the server
 * writes itself answers with that policy, and its HTML holds nothing the policy would refuse: no style attribute, no
 * style or script element without the nonce. The site's colours come from /site.css.
 */
describe.each(DATABASE_KINDS)('every page has a strict style policy (%s)', (kind) => {
  let t: TestApp;
  let routes: PageRoute[];
  let member: Record<string, string>;
  let profileId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, pages: true, outbox: true });
    routes = (await pageBuild()).routes;
    member = await signedInCookie(t);
    profileId = t.demoUserId;
  }, 300_000);
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  }, 300_000);

  /** The dev viewers answer the operator at this machine only: a loopback peer. */
  const operator = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };
  const get = (path: string, headers: Record<string, string> = {}) =>
    t.app.request(`http://localhost${path}`, { headers: { host: 'localhost', ...headers } }, operator);

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

  /** The directives of a Content-Security-Policy header, each with its sources. */
  function directives(header: string | null): Map<string, string[]> {
    return new Map((header ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name, sources]));
  }

  /**
   * The answer's policy allows no inline style but by its nonce (style-src as script-src), and its HTML carries no
   * style attribute and no style or script element without that nonce. An answer without inline elements names no
   * nonce (docs/decisions/088); a JSON answer has the policy of data. Returns the body.
   */
  async function expectStrict(res: Response, what: string): Promise<string> {
    const header = res.headers.get('content-security-policy');
    if (/^application\/json/.test(res.headers.get('content-type') ?? '')) {
      expect(header, `${what}: the policy of data`).toBe("default-src 'none'; frame-ancestors 'none'");
      return res.text();
    }
    const policy = directives(header);
    const scriptSrc = policy.get('script-src') ?? [];
    const styleSrc = policy.get('style-src') ?? [];
    const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
    if (nonce !== undefined) expect(nonce, `${what}: the nonce in script-src`).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
    expect(scriptSrc, `${what}: script-src`).toEqual(["'self'", ...(nonce ? [`'nonce-${nonce}'`] : [])]);
    expect(styleSrc, `${what}: style-src`).toEqual(["'self'", ...(nonce ? [`'nonce-${nonce}'`] : [])]);
    for (const name of ['style-src', 'style-src-elem', 'style-src-attr', 'script-src', 'default-src']) {
      expect(policy.get(name) ?? [], `${what}: ${name}`).not.toContain("'unsafe-inline'");
    }
    const html = await res.text();
    if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) return html;
    // What scripts hold (loader data, the loader's source) is no markup: only their tags are read.
    const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/gi, '$1</script>');
    expect(markup.match(/<[a-z][^>]*\sstyle\s*=[^>]*>/gi) ?? [], `${what}: elements with a style attribute`).toEqual([]);
    for (const tag of markup.match(/<(style|script)\b[^>]*>/gi) ?? []) {
      if (/^<script\b[^>]*\ssrc=/i.test(tag)) continue;
      expect(nonce, `${what}: a nonce in the policy for ${tag}`).toBeDefined();
      expect(tag, `${what}: an inline element without the response's nonce`).toContain(` nonce="${nonce}"`);
    }
    return html;
  }

  it('walks every page of app/routes.ts as a member and as a visitor: no inline style but by the nonce, the colours linked', async () => {
    expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['index', 'login', 'signup', 'members', 'members-id', 'profile', 'chats', 'chats-id', 'credits', 'transactions', 'notifications', 'pages-terms', 'complaints', 'landers-maplanding', 'not-found']));
    const sheet = t.services.settings.themeStylesheet(await t.services.settings.siteForHost('localhost'));
    const rendered: string[] = [];
    for (const route of routes) {
      for (const path of pathsOf(route)) {
        for (const [who, headers] of [['member', member], ['visitor', { cookie: `${LOCALE_COOKIE}=en` }]] as const) {
          const res = await get(path, headers);
          expect(res.status, `${path} (${who})`).toBeLessThan(500);
          const html = await expectStrict(res, `${path} (${who}, ${res.status})`);
          if (!html.startsWith('<!DOCTYPE html>')) continue;
          expect(html, `${path} (${who})`).toContain(`<link rel="stylesheet" href="${sheet.href}" data-site-theme=""/>`);
          rendered.push(path);
        }
      }
    }
    // The page types of the issue, among those rendered in full.
    expect(rendered).toEqual(expect.arrayContaining([
      '/', '/landers/maplanding', '/landers/collagelanding', '/landers/iconslanding', '/landers/tinderswipe', '/login', '/signup',
      '/members', `/members/${profileId}`, '/profile', '/chats', `/chats/${profileId}`, '/credits', '/transactions', '/notifications',
      '/pages/terms', '/complaints', '/no/such/page',
    ]));
  }, 300_000);

  it('holds for the pages the server writes itself: offline, unsubscribe, the dev viewers', async () => {
    for (const path of ['/offline', '/api/unsubscribe.php?u=1&c=news&s=bad', '/dev/outbox', '/dev/sms']) {
      const res = await get(path);
      expect(res.status, path).toBeLessThan(500);
      const html = await expectStrict(res, path);
      expect(html, path).toMatch(/<style nonce=|<link rel="stylesheet" href="\/dev\/(outbox|sms)\/viewer\.css">/);
    }
    for (const path of ['/dev/outbox/viewer.css', '/dev/sms/viewer.css']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/css; charset=utf-8');
    }
  });

  it('lets a mail in the dev outbox keep its inline styles under a policy of its own: nothing else, sandboxed', async () => {
    // The sign-up's activation mail, once the outbox has sent it.
    await t.services.events.settle();
    const mails = (await (await get('/dev/outbox/mails.json')).json()) as { mails: { id: string }[] };
    expect(mails.mails.length).toBeGreaterThan(0);
    const res = await get(`/dev/outbox/${mails.mails[0].id}/html`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/ style="/);
    const policy = directives(res.headers.get('content-security-policy'));
    expect(res.headers.get('content-security-policy')).toBe(MAIL_PART_POLICY);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.has('script-src')).toBe(false);
    expect(policy.has('sandbox')).toBe(true);
    // A mail that is not there is the viewer's 404, under the site's strict policy.
    const missing = await get('/dev/outbox/no-such-mail/html');
    expect(missing.status).toBe(404);
    expect(directives(missing.headers.get('content-security-policy')).get('style-src')).not.toContain("'unsafe-inline'");
  });
});
