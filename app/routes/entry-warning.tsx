import { redirect } from 'react-router';
import { DISMISS_COOKIE, DISMISS_COOKIE_MAX_AGE, DISMISS_KEYS, dismissedInCookie } from '#common/constants.ts';
import { requestContext } from '../context.ts';
import type { Route } from './+types/entry-warning';

/** Where the visitor goes back to: a path of this site, else the home page. */
function backTo(value: FormDataEntryValue | null | undefined): string {
  return typeof value === 'string' && value.length <= 2000 && /^\/(?![/\\])[^\s\\]*$/.test(value) ? value : '/';
}

/**
 * "Enter" on the entry warning before the page's code runs, or without JavaScript: its form posts here, the
 * dismissals cookie gains the warning, and the visitor is back on their page, which the server now renders
 * without it. (With the page's code running, the warning closes in place and writes the same cookie.)
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const keys = new Set([...dismissedInCookie(request.headers.get('cookie')), DISMISS_KEYS.entryWarning]);
  const secure = context.get(requestContext).secure ? '; Secure' : '';
  const cookie = `${DISMISS_COOKIE}=${[...keys].sort().join('.')}; Path=/; Max-Age=${DISMISS_COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
  return redirect(backTo(form?.get('return')), { status: 303, headers: { 'Set-Cookie': cookie } });
}

/** Nothing to show here. */
export function loader() {
  return redirect('/');
}
