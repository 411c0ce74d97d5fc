import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBytes } from 'node:crypto';
import { AUTH_COOKIE, AUTH_COOKIE_MAX_AGE, KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_COOKIE_MAX_AGE } from '#common/constants.ts';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from '#common/languages.ts';
import { loginSchema } from '#common/schemas.ts';
import { AppError, authenticationRequired } from '../infra/errors.ts';
import type { AppEnv } from '../http/context.ts';
import { rateLimit, requireUserId, tooManyRequests, type C, validBody } from '../http/helpers.ts';
import { languageBody } from '#common/contracts/accounts.ts';
import type { KnownDevice } from './accounts.service.ts';

const isHttps = (c: C) => c.get('ctx').secure;

export function setSessionCookie(c: C, token: string) {
  setCookie(c, AUTH_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: AUTH_COOKIE_MAX_AGE });
}

export function setLocaleCookie(c: C, lang: string) {
  setCookie(c, LOCALE_COOKIE, lang, { path: '/', sameSite: 'Lax', secure: isHttps(c), maxAge: LOCALE_COOKIE_MAX_AGE });
}

const DEVICE_PURPOSE = 'known-device';

/** The account this device logged in to before, from its signed cookie; a tampered cookie counts as none. */
async function knownDevice(c: C): Promise<KnownDevice | null> {
  const value = await c.get('ctx').services.cookies.verify(DEVICE_PURPOSE, getCookie(c, KNOWN_DEVICE_COOKIE));
  const m = value ? /^(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(value) : null;
  return m ? { userId: Number(m[1]), id: m[2] } : null;
}

/** After a log-in (or a password reset from the mail link) this device is known to the account. */
export async function rememberDevice(c: C, userId: number) {
  if ((await knownDevice(c))?.userId === userId) return;
  const value = await c.get('ctx').services.cookies.sign(DEVICE_PURPOSE, `${userId}.${randomBytes(16).toString('base64url')}`);
  setCookie(c, KNOWN_DEVICE_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: KNOWN_DEVICE_COOKIE_MAX_AGE });
}

async function userResponse(c: C, userId: number) {
  const user = await c.get('ctx').services.accounts.apiUser(userId);
  if (!user) throw authenticationRequired();
  return c.json({ user });
}

export const accountsRoutes = new Hono<AppEnv>()
  .get('/user.php', async (c) => {
    requireUserId(c);
    // The request context's member: loaded once per request, also when the context needed it for the language.
    const user = await c.get('ctx').user();
    if (!user) throw authenticationRequired();
    return c.json({ user });
  })

  /** Log-in with {email, password}. */
  .post('/user.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.login);
    const body = await validBody(c, loginSchema);
    const result = await ctx.services.accounts.attemptLogin(body.email, body.password, { ip: ctx.clientIp, device: await knownDevice(c) });
    if (result.userId === null) {
      if (result.retryAfter) throw tooManyRequests(c, result.retryAfter, 'login_throttled');
      throw new AppError(401, 'login_failed');
    }
    const userId = result.userId;
    await rememberDevice(c, userId);
    const token = await ctx.services.accounts.createSession(userId, c.req.header('user-agent'));
    setSessionCookie(c, token);
    const user = await ctx.services.accounts.apiUser(userId);
    if (user) setLocaleCookie(c, user.language);
    return c.json({ user });
  })

  /** {language}: kept in the locale cookie, and on the account when signed in. */
  .put('/user.php', async (c) => {
    const ctx = c.get('ctx');
    const body = await validBody(c, languageBody);
    setLocaleCookie(c, body.language);
    if (ctx.userId) {
      await ctx.services.accounts.setLanguage(ctx.userId, body.language);
      return userResponse(c, ctx.userId);
    }
    return c.json({ user: null, language: body.language });
  })

  /** Log-out: ends the session. The CSRF check refuses it from other sites. */
  .post('/logout.php', (c) => endSession(c))

  /**
   * The spec's GET alias. A GET crosses sites freely (an image on any page), so it only ends the
   * session when the request comes from this site; otherwise 403 and the session stays.
   */
  .get('/logout.php', (c) => {
    if (!fromThisSite(c)) throw new AppError(403, 'forbidden');
    return endSession(c);
  });

async function endSession(c: C) {
  await c.get('ctx').services.accounts.deleteSession(getCookie(c, AUTH_COOKIE));
  deleteCookie(c, AUTH_COOKIE, { path: '/', secure: isHttps(c) });
  return c.json({ ok: true });
}

/**
 * Whether a GET comes from this site. Fetch metadata decides when the browser sends it: same-origin,
 * or none (the member typed or bookmarked the address); not same-site, since a sibling subdomain may
 * belong to someone else. Without it (older browsers, other clients), an Origin or Referer must name
 * this host; with neither, the X-Request-Type header the site's own client sends is needed, as a
 * cross-site page cannot send a custom header without a preflight this server never grants.
 */
function fromThisSite(c: C): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const host = c.req.header('host');
  const source = c.req.header('origin') ?? c.req.header('referer');
  if (source) {
    try {
      return Boolean(host) && new URL(source).host === host;
    } catch {
      return false;
    }
  }
  return c.req.header('x-request-type') === 'client';
}
