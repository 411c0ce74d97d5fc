import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { LANDER_COOKIE, TRACKING_COOKIE_MAX_AGE } from '#common/constants.ts';
import { signupLander } from '#common/landers.ts';
import type { AppEnv } from './context.ts';
import { setVisitorCookie } from './visitor-cookie.ts';

/**
 * The first lander a visitor opens is kept in a cookie, first touch like the tracking parameters (decision 083): a
 * later lander does not replace it, and a sign-up books its member on it (users.lander). Only a known lander name is
 * read from the cookie; anything else counts as no cookie. It needs no signature: any visitor may open any lander,
 * so naming one proves nothing a visitor could not do by opening it.
 */
export const firstTouchLander: MiddlewareHandler<AppEnv> = async (c, next) => {
  const ctx = c.get('ctx');
  ctx.lander = signupLander(getCookie(c, LANDER_COOKIE));
  await next();
  // Set after the handler: a lander's page (built by the page renderer) says which lander it is.
  if (!ctx.lander && ctx.landerOpened && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
    setVisitorCookie(c, LANDER_COOKIE, ctx.landerOpened, {
      path: '/', httpOnly: true, sameSite: 'Lax', secure: ctx.secure, maxAge: TRACKING_COOKIE_MAX_AGE,
    });
  }
};
