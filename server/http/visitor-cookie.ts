import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';

/**
 * Sets a cookie of the visitor's own on an answer that is already built (a middleware's work after its handler: the
 * first-touch tracking and lander, the lander visit window). An answer that sets a cookie belongs to its visitor, as
 * the page renderer rules for the cookies it sees (server/pages.ts `cacheable`): no shared cache may keep it and
 * hand the cookie to others. The same page without the cookie to set stays as cacheable as it was.
 */
export function setVisitorCookie(c: Context, name: string, value: string, options: Parameters<typeof setCookie>[3]): void {
  setCookie(c, name, value, options);
  // An answer no cache keeps already (an unavailable page's `no-store`) keeps its own word.
  if (!/\bno-store\b/.test(c.res.headers.get('Cache-Control') ?? '')) c.header('Cache-Control', 'private, no-store');
}
