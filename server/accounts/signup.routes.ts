import { accountContracts, signupBody } from '#common/contracts/accounts.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { honoCookieJar } from '../http/cookie-jar.ts';
import { limitedBy, parse } from '../http/helpers.ts';
import { setSessionCookie } from '../http/session-cookies.ts';

export const signupRoutes = new ApiRoutes()
  /**
   * Sign-up: {email, name, password, date_of_birth, gender, country, network?, ref?, sub1–3?,
   * profile_id?, signup_message?}. Creates the member, signs them in and answers 201 {user,
   * signup_message?}; the sign-up form's page action runs the same use case (signup-form.server.ts).
   */
  .endpoint(accountContracts.signUp, { before: [limitedBy((limits) => limits.signup)] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    // The endpoint has read a JSON object (jsonBody); its fields are checked below, on the service clock's day.
    const sent = body as Record<string, unknown>;
    // A site without open sign-ups says so before it looks at the rest of the body.
    await ctx.services.signup.assertOpen(ctx.actor, { form: sent, firstTouch: ctx.tracking });
    const form = parse(signupBody(ctx.services.clock()), sent);
    const { session, ...answer } = await ctx.services.signup.signUp(ctx.actor, {
      form, firstTouch: ctx.tracking, lander: ctx.lander, language: ctx.lang, userAgent: c.req.header('user-agent'),
    });
    setSessionCookie(honoCookieJar(c), ctx, session);
    return c.json(answer, 201);
  });
