import { randomBytes } from 'node:crypto';
import { AUTH_COOKIE, AUTH_COOKIE_MAX_AGE, KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_COOKIE_MAX_AGE } from '#common/constants.ts';
import type { ApiUser } from '#common/api-types.ts';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from '#common/languages.ts';
import type { RequestContext } from './context.ts';
import type { CookieJar } from './cookie-jar.ts';
import { AppError } from '../infra/errors.ts';
import type { KnownDevice } from '../accounts/accounts.service.ts';

/**
 * The account cookies and the steps around them (log-in, a reset password), for both entry points:
 * the JSON API hands in a jar over its Hono context, a page action one over its request.
 */

export function setSessionCookie(jar: CookieJar, ctx: RequestContext, token: string) {
  jar.set(AUTH_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: ctx.secure, maxAge: AUTH_COOKIE_MAX_AGE });
}

export function setLocaleCookie(jar: CookieJar, ctx: Pick<RequestContext, 'secure'>, lang: string) {
  jar.set(LOCALE_COOKIE, lang, { path: '/', sameSite: 'Lax', secure: ctx.secure, maxAge: LOCALE_COOKIE_MAX_AGE });
}

const DEVICE_PURPOSE = 'known-device';

/** The account this device logged in to before, from its signed cookie; a tampered cookie counts as none. */
async function knownDevice(jar: CookieJar, ctx: RequestContext): Promise<KnownDevice | null> {
  const value = await ctx.services.cookies.verify(DEVICE_PURPOSE, jar.get(KNOWN_DEVICE_COOKIE));
  const m = value ? /^(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(value) : null;
  return m ? { userId: Number(m[1]), id: m[2] } : null;
}

/** After a log-in (or a password reset from the mail link) this device is known to the account; answers the device. */
export async function rememberDevice(jar: CookieJar, ctx: RequestContext, userId: number): Promise<KnownDevice> {
  const known = await knownDevice(jar, ctx);
  if (known?.userId === userId) return known;
  const device = { userId, id: randomBytes(16).toString('base64url') };
  const value = await ctx.services.cookies.sign(DEVICE_PURPOSE, `${device.userId}.${device.id}`);
  jar.set(KNOWN_DEVICE_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'Lax', secure: ctx.secure, maxAge: KNOWN_DEVICE_COOKIE_MAX_AGE });
  return device;
}

/**
 * Log-in with checked {email, password}: throttled per account and device, then a session and the
 * member's language in cookies. A throttled attempt is a 429 whose `retry_after` (seconds) becomes its Retry-After header.
 */
export async function logIn(
  jar: CookieJar, ctx: RequestContext, input: { email: string; password: string }, userAgent: string | undefined,
): Promise<ApiUser | null> {
  const result = await ctx.services.accounts.attemptLogin(ctx.site.id, input.email, input.password, { ip: ctx.clientIp, device: await knownDevice(jar, ctx) });
  if (result.userId === null) {
    if (result.retryAfter) throw new AppError(429, 'login_throttled', { count: Math.ceil(result.retryAfter / 60), retry_after: result.retryAfter });
    if (result.banned) throw new AppError(403, 'account_banned');
    if (result.suspendedUntil) throw new AppError(403, 'account_suspended', { until: result.suspendedUntil.toISOString() });
    throw new AppError(401, 'login_failed');
  }
  await rememberDevice(jar, ctx, result.userId);
  setSessionCookie(jar, ctx, await ctx.services.accounts.createSession(result.userId, ctx.site.id, userAgent));
  const user = await ctx.services.accounts.apiUser(result.userId);
  if (user) setLocaleCookie(jar, ctx, user.language);
  return user;
}

/**
 * Asks for a reset mail for {email}: counted per requesting address and per account, or on a budget of its own
 * when this device logged in to that account before.
 */
export async function requestPasswordReset(jar: CookieJar, ctx: RequestContext, email: string) {
  await ctx.services.lifecycle.requestPasswordReset(ctx.site.id, email, { ip: ctx.clientIp, device: await knownDevice(jar, ctx) });
}

/** The new password from the reset link: every session ends, and this device may log in again. */
export async function resetPassword(jar: CookieJar, ctx: RequestContext, token: unknown, password: unknown, confirm: unknown) {
  const { userId, email } = await ctx.services.lifecycle.resetPassword(ctx.site.id, token, password, confirm);
  // The mail link proves the mailbox: this device may log in again whatever an attacker tried elsewhere.
  const device = await rememberDevice(jar, ctx, userId);
  await ctx.services.accounts.clearLoginThrottle(ctx.site.id, email, { ip: ctx.clientIp, device });
  jar.delete(AUTH_COOKIE, { path: '/' });
}
