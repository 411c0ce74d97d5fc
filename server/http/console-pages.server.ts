import { data, redirect } from 'react-router';
import type { Language } from '#common/languages.ts';
import { isLanguage } from '#common/languages.ts';
import type { StaffActor } from '../actor.ts';
import { isAppError } from '../infra/errors.ts';
import type { ConsoleAccount } from '../staff/console.service.ts';
import { relyingParty, type RelyingParty } from '../staff/staff-passkeys.ts';
import type { RequestContext } from './context.ts';

/** Whether a page's path is the console's (its own layout, language and sign-in). */
export const isConsolePath = (pathname: string) => pathname === '/console' || pathname.startsWith('/console/');

/** The signed-in staff member's account, or null: a visitor or a member is nobody in the console. */
export async function consoleAccount(ctx: RequestContext): Promise<ConsoleAccount | null> {
  const staff = await ctx.staff();
  if (!staff) return null;
  return ctx.services.console.account(staff).catch(() => null);
}

/** The console's pages need a staff session; everyone else gets the console's sign-in, never a member page. */
export async function requireConsoleStaff(ctx: RequestContext): Promise<StaffActor> {
  const staff = await ctx.staff();
  if (!staff) throw redirect('/console/login');
  return staff;
}

/** The console's WebAuthn relying party: this site's canonical origin and name (passkeys belong to its domain). */
export const consoleRelyingParty = (ctx: RequestContext): RelyingParty => relyingParty(ctx.baseUrl, ctx.site.name);

/** The language console pages speak: the staff member's own setting, else the request's. */
export async function consoleLanguage(ctx: RequestContext): Promise<Language> {
  const account = await consoleAccount(ctx);
  return account && isLanguage(account.language) ? account.language : ctx.lang;
}

/**
 * A use case's refusal as a console message: `console.errors.<code>` where the console says it its own way (a wrong
 * code, throttling), else the API's `errors.<code>`. Anything that is not a refusal is thrown on.
 */
export function consoleErrorText(ctx: RequestContext, lang: Language, error: unknown, own: readonly string[]): { code: string; message: string } {
  if (!isAppError(error)) throw error;
  const params = { ...error.params, count: error.params.count ?? Math.ceil(Number(error.params.retry_after ?? 60) / 60) };
  const key = own.includes(error.code) ? `console.errors.${error.code}` : `errors.${error.code}`;
  return { code: error.code, message: ctx.translator.t(lang, key, params) };
}

/** A use case's 403 becomes the console page's 403. */
export async function orForbidden<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && error.status === 403) throw data(null, { status: 403 });
    throw error;
  }
}
