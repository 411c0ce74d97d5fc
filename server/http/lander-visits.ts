import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { MEMBER_LANDERS, SIGNUP_LANDERS } from '#common/landers.ts';
import { LANDER_VISIT_WINDOW_SECONDS } from '../landers/lander-visits.ts';
import type { AppEnv } from './context.ts';
import { setVisitorCookie } from './visitor-cookie.ts';

const COOKIE = 'amora.lv';

/**
 * Where the cookie of a counted view lives: under /landers for the landers, under /members for a member's landing
 * pages (no cookie path can name /members/{id}/landing alone). It travels only to the pages that read it, so the
 * visitor's other pages keep their caching; and a browser keeps one cookie per path, each listing its own landers.
 */
const cookiePath = (lander: string) => ((MEMBER_LANDERS as readonly string[]).includes(lander) ? '/members' : '/landers');

/**
 * A lander's page counts its visitor once per window: the cookie lists the landers this browser was counted on (only
 * known lander names, so it holds nothing a visitor could use), and a counted view renews it with its lander added.
 */
export const landerVisitCookie: MiddlewareHandler<AppEnv> = async (c, next) => {
  const ctx = c.get('ctx');
  const seen = (getCookie(c, COOKIE) ?? '').split('.').filter((name) => (SIGNUP_LANDERS as readonly string[]).includes(name));
  ctx.landerVisit = { userAgent: c.req.header('user-agent'), seen };
  await next();
  const counted = ctx.landerVisit.counted;
  if (counted) {
    setVisitorCookie(c, COOKIE, [...new Set([...seen, counted])].join('.'), {
      path: cookiePath(counted), httpOnly: true, sameSite: 'Lax', secure: ctx.secure, maxAge: LANDER_VISIT_WINDOW_SECONDS,
    });
  }
};
