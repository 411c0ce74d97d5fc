import { deleteCookie, getCookie } from 'hono/cookie';
import { AUTH_COOKIE } from '#common/constants.ts';
import { accountContracts } from '#common/contracts/accounts.ts';
import { loginSchema } from '#common/schemas.ts';
import { AppError, authenticationRequired } from '../infra/errors.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { limitedBy, type C } from '../http/helpers.ts';
import { honoCookieJar } from '../http/cookie-jar.ts';
import { logIn, setLocaleCookie as setLocale, setSessionCookie as setSession } from '../http/session-cookies.ts';

const isHttps = (c: C) => c.get('ctx').secure;

/** The session cookie of this answer (signed up, a new password): see session-cookies.ts. */
export function setSessionCookie(c: C, token: string) {
  setSession(honoCookieJar(c), c.get('ctx'), token);
}

export function setLocaleCookie(c: C, lang: string) {
  setLocale(honoCookieJar(c), c.get('ctx'), lang);
}

async function userResponse(c: C, userId: number) {
  const user = await c.get('ctx').services.accounts.apiUser(userId);
  if (!user) throw authenticationRequired();
  return c.json({ user });
}

export const accountsRoutes = new ApiRoutes()
  .endpoint(accountContracts.user, async (c) => {
    // The request context's member: loaded once per request, also when the context needed it for the language.
    const user = await c.get('ctx').user();
    if (!user) throw authenticationRequired();
    return c.json({ user });
  })

  /** Log-in with {email, password}; with ?push=1 the push subscription (push.routes.ts, declared before this). */
  .endpoint(accountContracts.logIn, { before: [limitedBy((limits) => limits.login)], body: loginSchema }, async (c, { body }) => {
    const ctx = c.get('ctx');
    const user = await logIn(honoCookieJar(c), ctx, body, c.req.header('user-agent'));
    return c.json({ user });
  })

  /** {language}: kept in the locale cookie, and on the account when signed in. */
  .endpoint(accountContracts.setLanguage, async (c, { body }) => {
    const ctx = c.get('ctx');
    setLocaleCookie(c, body.language);
    if (ctx.actor.kind === 'member') {
      await ctx.services.accounts.setLanguage(ctx.actor, body.language);
      return userResponse(c, ctx.actor.userId);
    }
    return c.json({ user: null, language: body.language });
  })

  /** Log-out: ends the session. The CSRF check refuses it from other sites. */
  .endpoint(accountContracts.logOut, (c) => endSession(c))

  /**
   * The spec's GET alias. A GET crosses sites freely (an image on any page), so it only ends the
   * session when the request comes from this site; otherwise 403 and the session stays.
   */
  .endpoint(accountContracts.logOutLink, (c) => {
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
