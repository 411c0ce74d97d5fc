import { STAFF_COOKIE, STAFF_TOKEN_PREFIX } from '#common/staff.ts';
import type { StaffActor } from '../actor.ts';
import { STAFF_SESSION_LIFETIME_MS } from '../staff/staff-sign-in.ts';
import type { UseCases } from '../use-cases.ts';
import type { RequestContext } from './context.ts';
import type { CookieJar } from './cookie-jar.ts';

/**
 * The console session's cookie (decision 059): a name of its own, HttpOnly, SameSite=Strict (no other site's page,
 * not even a link, brings it along), Secure over https, for the session's whole life; the server ends it sooner
 * when it has been idle.
 */
export function setStaffCookie(jar: CookieJar, ctx: Pick<RequestContext, 'secure'>, token: string) {
  jar.set(STAFF_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Strict', secure: ctx.secure, maxAge: STAFF_SESSION_LIFETIME_MS / 1000 });
}

export function clearStaffCookie(jar: CookieJar, ctx: Pick<RequestContext, 'secure'>) {
  jar.delete(STAFF_COOKIE, { path: '/', httpOnly: true, sameSite: 'Strict', secure: ctx.secure });
}

/**
 * The staff member of a request: a staff API token in `Authorization: Bearer amora_st_…` (with its scopes as roles),
 * else the console session's cookie. A bearer token that does not verify is nobody: it never falls back to a cookie.
 */
export async function staffOfRequest(services: Pick<UseCases, 'staff'>, authorization: string | undefined, cookie: string | undefined): Promise<StaffActor | null> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (bearer?.startsWith(STAFF_TOKEN_PREFIX)) return services.staff.verifyToken(bearer);
  return services.staff.session(cookie);
}
