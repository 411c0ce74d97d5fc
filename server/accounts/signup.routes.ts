import { Hono } from 'hono';
import { signupBody } from '#common/contracts/accounts.ts';
import type { AppEnv } from '../http/context.ts';
import { honoCookieJar } from '../http/cookie-jar.ts';
import { jsonBody, parse, rateLimit } from '../http/helpers.ts';
import { signUp, signupTracking } from './sign-up.ts';

export type { SignupMessageResult } from './sign-up.ts';

export const signupRoutes = new Hono<AppEnv>()
  /**
   * Sign-up: {email, name, password, date_of_birth, gender, country, network?, ref?, sub1–3?,
   * profile_id?, signup_message?}. Creates the member, signs them in and answers 201 {user,
   * signup_message?}; the sign-up form's page action runs the same use case (sign-up.ts).
   */
  .post('/signup.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.signup);
    const body = await jsonBody(c);
    // A site without open sign-ups says so before it looks at the rest of the body.
    signupTracking(ctx, body);
    const input = parse(signupBody(ctx.services.clock()), body);
    return c.json(await signUp(honoCookieJar(c), ctx, input, c.req.header('user-agent')), 201);
  });
