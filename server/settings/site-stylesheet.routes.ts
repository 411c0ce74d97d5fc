import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { createSettingsService } from './settings.service.ts';
import { SITE_STYLESHEET_PATH } from './site-stylesheet.ts';

/**
 * GET /site.css?v=<version>: the colours of the site that serves the request (docs/decisions/052), linked from
 * every page instead of an inline style element, so the Content-Security-Policy needs no 'unsafe-inline' for
 * styles. The version is a hash of the CSS: a page names the current one, which may be kept for a year, and a
 * change of colours gives the pages a new URL at once. Any other version (a page from before the change), or
 * none, gets the current colours, revalidated on every use. Served before the request context: it needs the
 * site only, not the session.
 */
export function siteStylesheetRoutes(settings: Pick<ReturnType<typeof createSettingsService>, 'themeStylesheet'>) {
  return new Hono<AppEnv>().get(SITE_STYLESHEET_PATH, (c) => {
    const sheet = settings.themeStylesheet(c.get('site'));
    const etag = `"${sheet.version}"`;
    const headers: Record<string, string> = {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': c.req.query('v') === sheet.version ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: etag,
    };
    if (c.req.header('if-none-match')?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
    return c.body(sheet.css, 200, headers);
  });
}
