import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { AUTH_COOKIE, AUTH_COOKIE_MAX_AGE } from '#common/constants.ts';
import { isLanguage, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from '#common/languages.ts';
import { loginSchema } from '#common/schemas.ts';
import { AppError, authenticationRequired } from '../infra/errors.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, parse, rateLimit, requireUserId, type C } from '../http/helpers.ts';

const isHttps = (c: C) => c.get('ctx').baseUrl.startsWith('https:');

export function setSessionCookie(c: C, token: string) {
  setCookie(c, AUTH_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: AUTH_COOKIE_MAX_AGE });
}

export function setLocaleCookie(c: C, lang: string) {
  setCookie(c, LOCALE_COOKIE, lang, { path: '/', sameSite: 'Lax', secure: isHttps(c), maxAge: LOCALE_COOKIE_MAX_AGE });
}

async function userResponse(c: C, userId: number) {
  const user = await c.get('ctx').services.accounts.apiUser(userId);
  if (!user) throw authenticationRequired();
  return c.json({ user });
}

export const accountsRoutes = new Hono<AppEnv>()
  .get('/user.php', (c) => userResponse(c, requireUserId(c)))

  /** Log-in with {email, password}. */
  .post('/user.php', async (c) => {
    const ctx = c.get('ctx');
    rateLimit(c, ctx.services.rateLimits.login);
    const body = parse(loginSchema, await jsonBody(c));
    const userId = await ctx.services.accounts.verifyCredentials(body.email, body.password);
    if (!userId) throw new AppError(401, 'login_failed');
    const token = await ctx.services.accounts.createSession(userId, c.req.header('user-agent'));
    setSessionCookie(c, token);
    const user = await ctx.services.accounts.apiUser(userId);
    if (user) setLocaleCookie(c, user.language);
    return c.json({ user });
  })

  /** {language}: kept in the locale cookie, and on the account when signed in. */
  .put('/user.php', async (c) => {
    const ctx = c.get('ctx');
    const body = await jsonBody(c);
    if (!isLanguage(body.language)) throw new AppError(400, 'language_invalid');
    setLocaleCookie(c, body.language);
    if (ctx.userId) {
      await ctx.services.accounts.setLanguage(ctx.userId, body.language);
      return userResponse(c, ctx.userId);
    }
    return c.json({ user: null, language: body.language });
  })

  .get('/logout.php', async (c) => {
    await c.get('ctx').services.accounts.deleteSession(getCookie(c, AUTH_COOKIE));
    deleteCookie(c, AUTH_COOKIE, { path: '/', secure: isHttps(c) });
    return c.json({ ok: true });
  });
