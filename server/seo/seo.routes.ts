import { Hono } from 'hono';
import { LANDER_NAMES } from '#common/landers.ts';
import { PAGE_SLUGS } from '../content/content.service.ts';
import type { AppEnv } from '../http/context.ts';

/** Areas behind the log-in and endpoints: nothing for a search engine, and members' pages stay out of indexes. */
const PRIVATE_PATHS = [
  '/api/', '/chats', '/likes', '/profile', '/credits', '/transactions', '/notifications', '/delete-account', '/account-deleted',
  '/complete-signup', '/signup-matches', '/match-finder', '/swipe-game', '/directdebit', '/premium', '/test-checkout/',
  '/reset-password', '/mail-change/', '/activate/', '/lang-config', '/members',
];

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
    const lines = ['User-agent: *', ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`), '', `Sitemap: ${baseUrl}/sitemap.xml`, ''];
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
