import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { LANDER_NAMES } from '#common/landers.ts';
import { LANDER_VISIT_WINDOW_SECONDS } from '../landers/lander-visits.ts';
import type { AppEnv } from './context.ts';
import { setVisitorCookie } from './visitor-cookie.ts';

const COOKIE = 'amora.lv';

/**
 * A lander's page counts its visitor once per window: the cookie lists the landers this browser was counted on (only
 * known lander names, so it holds nothing a visitor could use), and a counted view renews it with its lander added.
 */
export const landerVisitCookie: MiddlewareHandler<AppEnv> = async (c, next) => {
  const ctx = c.get('ctx');
  const seen = (getCookie(c, COOKIE) ?? '').split('.').filter((name) => (LANDER_NAMES as readonly string[]).includes(name));
  ctx.landerVisit = { userAgent: c.req.header('user-agent'), seen };
  await next();
  const counted = ctx.landerVisit.counted;
  if (counted) {
    setVisitorCookie(c, COOKIE, [...new Set([...seen, counted])].join('.'), {
      path: '/landers', httpOnly: true, sameSite: 'Lax', secure: ctx.secure, maxAge: LANDER_VISIT_WINDOW_SECONDS,
    });
  }
};
