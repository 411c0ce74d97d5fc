import { redirectDocument } from 'react-router';
import { signupBody } from '#common/contracts/accounts.ts';
import { reactivateSchema } from '#common/schemas.ts';
import type { RequestContext } from '../http/context.ts';
import { requestCookieJar } from '../http/cookie-jar.ts';
import { formIntent, submitForm } from '../http/forms.server.ts';
import { setSessionCookie } from '../http/session-cookies.ts';

/** Where a member lands who signed up without JavaScript (the later steps need it). */
export const SIGNUP_DONE_URL = '/members?signup-complete=1';

/**
 * The action of every page that shows the sign-up form (/signup, /signup-matches,
 * /members/{id}/signup; the modal posts to /signup). The form is checked with the schema of POST
 * /api/signup.php and runs the same use case. With JavaScript the form says it continues in place
 * (`steps=in-place`) and gets the new member back for the next steps; without it the member is
 * signed in and sent on. The offer to reactivate a deleted account posts here too (intent
 * `reactivate`), as POST /api/reactivate.php.
 */
export async function signupAction(ctx: RequestContext, request: Request) {
  const formData = await request.formData();
  if (formIntent(formData) === 'reactivate') {
    return submitForm(ctx, formData, reactivateSchema, async ({ email }) => {
      await ctx.services.lifecycle.requestReactivation(ctx.site.id, email);
      return { email };
    }, { intent: 'reactivate', limits: ctx.services.rateLimits.mail });
  }
  const jar = requestCookieJar(request);
  const inPlace = formData.get('steps') === 'in-place';
  return submitForm(ctx, formData, signupBody(ctx.services.clock()), async (input) => {
    const { session, ...result } = await ctx.services.signup.signUp(ctx.actor, {
      form: input, firstTouch: ctx.tracking, lander: ctx.lander, language: ctx.lang, userAgent: request.headers.get('user-agent') ?? undefined,
    });
    setSessionCookie(jar, ctx, session);
    return inPlace ? result : redirectDocument(SIGNUP_DONE_URL, { headers: jar.headers });
  }, { intent: 'signup', limits: ctx.services.rateLimits.signup, headers: jar.headers });
}
