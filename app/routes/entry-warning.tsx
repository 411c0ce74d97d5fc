import { redirect } from 'react-router';
import { DISMISS_KEYS, dismissalsCookie, dismissedInCookie } from '#common/constants.ts';
import { safeRedirect } from '../lib/safe-redirect.ts';
import { requestContext } from '../context.ts';
import type { Route } from './+types/entry-warning';

/**
 * "Enter" on the entry warning before the page's code runs, or without JavaScript: its form posts here, the
 * dismissals cookie gains the warning, and the visitor is back on their page, which the server now renders
 * without it. (With the page's code running, the warning closes in place and writes the same cookie.)
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const keys = new Set([...dismissedInCookie(request.headers.get('cookie')), DISMISS_KEYS.entryWarning]);
  const cookie = dismissalsCookie(keys) + (context.get(requestContext).secure ? '; Secure' : '');
  const back = form?.get('return');
  return redirect(safeRedirect(typeof back === 'string' ? back : null, '/'), { status: 303, headers: { 'Set-Cookie': cookie } });
}

/** Nothing to show here. */
export function loader() {
  return redirect('/');
}
