import { Hono } from 'hono';
import { LANDER_NAMES } from '#common/landers.ts';
import { PAGE_SLUGS } from '../content/content.service.ts';
import type { AppEnv } from '../http/context.ts';

/** Endpoints and one-off links: nothing there for a search engine to fetch. */
const UNCRAWLED_PATHS = ['/api/', '/test-checkout/', '/reset-password', '/mail-change/', '/activate/', '/statements/'];

/**
 * The members' area: pages a visitor meets only as a log-in page, or as the public search when the site allows
 * it. They are not closed to crawlers in robots.txt: a crawler must fetch them to read their noindex (a
 * blocked page can still be indexed from links to it, without its content). Every visitor's answer under these
 * paths carries `X-Robots-Tag: noindex` (server/pages.ts), so members' names and photos stay out of indexes;
 * a signed-in member's answer needs none, as no crawler is signed in.
 */
export const MEMBER_AREA_PATHS = [
  '/chats', '/likes', '/profile', '/credits', '/transactions', '/notifications', '/delete-account', '/account-deleted',
  '/complete-signup', '/signup-matches', '/match-finder', '/swipe-game', '/directdebit', '/premium', '/lang-config', '/members',
  '/report', '/reports',
];

/** Whether a visitor's answer for this path must say noindex: the members' area (lander pages of a member excepted). */
export function visitorNoindex(pathname: string): boolean {
  if (/^\/members\/\d+\/landing/.test(pathname)) return false;
  return MEMBER_AREA_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`) || pathname.startsWith(`${p}?`));
}

/** The public pages of a site, each at its canonical origin (the language is not in the URL). */
function publicPaths(): string[] {
  const pages = PAGE_SLUGS.map((slug) => (slug === 'complaints' ? '/complaints' : `/pages/${slug}`));
  return ['/', '/signup', '/login', '/pricing', ...pages, ...LANDER_NAMES.map((name) => `/landers/${name}`)];
}

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);

/** robots.txt and sitemap.xml per site: the host of the request picks the site, its canonical origin names the URLs. */
export const seoRoutes = new Hono<AppEnv>()
  .get('/robots.txt', (c) => {
    const { baseUrl } = c.get('ctx');
    const lines = ['User-agent: *', ...UNCRAWLED_PATHS.map((p) => `Disallow: ${p}`), '', `Sitemap: ${baseUrl}/sitemap.xml`, ''];
    c.header('Cache-Control', 'public, max-age=3600');
    return c.text(lines.join('\n'));
  })
  .get('/sitemap.xml', (c) => {
    const { baseUrl } = c.get('ctx');
    const urls = publicPaths().map((p) => `  <url><loc>${xmlEscape(baseUrl + p)}</loc></url>`);
    c.header('Content-Type', 'application/xml; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
  });
