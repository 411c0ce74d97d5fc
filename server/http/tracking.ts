import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { TRACKING_COOKIE, TRACKING_COOKIE_MAX_AGE } from '#common/constants.ts';
import type { AppEnv } from './context.ts';
import { setVisitorCookie } from './visitor-cookie.ts';
import type { CookieSigner } from '../infra/cookie-signer.ts';
import { trackingFrom, type Tracking } from '#common/tracking.ts';

const PURPOSE = 'tracking';

/** Only a cookie this server signed counts: unsigned or altered values are ignored (as no cookie). */
async function readCookie(cookies: CookieSigner, cookie: string | undefined): Promise<Tracking> {
  const value = await cookies.verify(PURPOSE, cookie);
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
 * a later visit with other parameters does not overwrite them. The cookie is signed (HMAC-SHA256),
 * so a visitor cannot credit their sign-up to a partner of their choice. The request context gets the stored
 * values, or the current ones on the very first visit.
 */
export const firstTouchTracking: MiddlewareHandler<AppEnv> = async (c, next) => {
  const ctx = c.get('ctx');
  const { cookies } = ctx.services;
  const stored = await readCookie(cookies, getCookie(c, TRACKING_COOKIE));
  const first = Object.keys(stored).length === 0;
  ctx.tracking = first ? trackingFrom(c.req.query()) : stored;
  ctx.trackingFirstTouch = first;
  await next();
  // Set after the handler: page responses are built by the page renderer, not by this context.
  if (first && Object.keys(ctx.tracking).length && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
    const value = await cookies.sign(PURPOSE, Buffer.from(JSON.stringify(ctx.tracking)).toString('base64url'));
    setVisitorCookie(c, TRACKING_COOKIE, value, {
      path: '/', httpOnly: true, sameSite: 'Lax', secure: ctx.secure, maxAge: TRACKING_COOKIE_MAX_AGE,
    });
  }
};
