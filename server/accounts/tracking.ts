import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { TRACKING_COOKIE, TRACKING_COOKIE_MAX_AGE } from '#common/constants.ts';
import type { AppEnv } from '../http/context.ts';
import { trackingFrom, type Tracking } from './signup.service.ts';

function readCookie(value: string | undefined): Tracking {
  if (!value) return {};
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? trackingFrom(parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Tracking parameters (network, ref, sub1–sub3) on any landing URL are kept in a first-touch cookie:
 * a later visit with other parameters does not overwrite them. The request context gets the stored
 * values, or the current ones on the very first visit.
 */
export const firstTouchTracking: MiddlewareHandler<AppEnv> = async (c, next) => {
  const ctx = c.get('ctx');
  const stored = readCookie(getCookie(c, TRACKING_COOKIE));
  const first = Object.keys(stored).length === 0;
  ctx.tracking = first ? trackingFrom(c.req.query()) : stored;
  await next();
  // Set after the handler: page responses are built by the page renderer, not by this context.
  if (first && Object.keys(ctx.tracking).length && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
    setCookie(c, TRACKING_COOKIE, Buffer.from(JSON.stringify(ctx.tracking)).toString('base64url'), {
      path: '/', httpOnly: true, sameSite: 'Lax', secure: ctx.baseUrl.startsWith('https:'), maxAge: TRACKING_COOKIE_MAX_AGE,
    });
  }
};
