import { redirect, redirectDocument } from 'react-router';
import { STAFF_COOKIE } from '#common/staff.ts';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { clearStaffCookie } from '#server/http/staff-cookies.ts';
import type { Route } from './+types/console-sign-out';
import { requestContext } from '../context.ts';

/** Signing out of the console: the session ends (audited) and its cookie goes. A GET does nothing. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const jar = requestCookieJar(request);
  await ctx.services.staff.endSession(jar.get(STAFF_COOKIE), { ip: ctx.clientAddress });
  clearStaffCookie(jar, ctx);
  return redirectDocument('/console/login', { headers: jar.headers });
}

export function loader() {
  throw redirect('/console');
}
