import type { SignupBody } from '#common/contracts/accounts.ts';
import type { ApiUser } from '#common/api-types.ts';
import { messageKey } from '#common/forms.ts';
import { messageSchema } from '#common/schemas.ts';
import { trackingFrom, type Tracking } from '#common/tracking.ts';
import { chatCostsFor } from '../chat/chat-prices.server.ts';
import type { RequestContext } from '../http/context.ts';
import type { CookieJar } from '../http/cookie-jar.ts';
import { AppError, authenticationRequired, isAppError } from '../infra/errors.ts';
import { actorFor } from '../actor.ts';
import { setSessionCookie } from './session-cookies.ts';
import { signupAllowed } from './signup.service.ts';

export type SignupMessageResult =
  | { status: 'sent'; conversation_id: number; credits: number }
  | { status: 'draft'; code: 'insufficient_credits' }
  | { status: 'failed'; code: string };

export interface SignupResult { user: ApiUser; signup_message?: SignupMessageResult }

/**
 * The tracking a sign-up is booked on, or 403 signup_disabled where the site takes no sign-ups
 * without it. First touch wins: the stored landing parameters, else what this request brings.
 */
export function signupTracking(ctx: RequestContext, body: Record<string, unknown>): Tracking {
  const stored = ctx.tracking ?? {};
  const tracking = Object.keys(stored).length ? stored : trackingFrom(body);
  if (!signupAllowed(ctx.site.signups, tracking)) throw new AppError(403, 'signup_disabled');
  return tracking;
}

/**
 * Sign-up with input checked by the shared schema (signupBody), for both entry points: POST
 * /api/signup.php and the sign-up form's page action. Creates the member, signs them in (the session
 * cookie goes into the jar) and sends the first message to a member once the account exists; it
 * costs what any message costs, and without enough credits it comes back as a draft. An address in
 * use answers 409 email_taken (offer log-in) or account_deleted (offer reactivation).
 */
export async function signUp(jar: CookieJar, ctx: RequestContext, input: SignupBody, userAgent: string | undefined): Promise<SignupResult> {
  const tracking = signupTracking(ctx, input);

  let message: { profileId: number; text: string } | null = null;
  if (typeof input.profile_id === 'number' && input.signup_message?.trim()) {
    const checked = messageSchema.safeParse({ text: input.signup_message });
    if (!checked.success) {
      const key = messageKey(checked.error.issues[0].message);
      throw new AppError(400, key.replace(/^errors\./, ''), {}, { signup_message: key });
    }
    const { text } = checked.data;
    if (text.length > ctx.site.messageLength) {
      throw new AppError(400, 'message_too_long', { max: ctx.site.messageLength }, { signup_message: 'errors.message_too_long' });
    }
    await ctx.services.signup.assertRecipient(input.profile_id);
    message = { profileId: input.profile_id, text };
  }

  const userId = await ctx.services.signup.signup(ctx.site, input, ctx.lang, tracking);
  setSessionCookie(jar, ctx, await ctx.services.accounts.createSession(userId, userAgent));

  let signupMessage: SignupMessageResult | undefined;
  if (message) {
    try {
      // The new member writes it: the request began as a visitor's.
      const sent = await ctx.services.chat.send(actorFor(ctx.site.id, userId), {
        recipientId: message.profileId, content: { kind: 'text', text: message.text }, idempotencyKey: `signup-${userId}`,
        cost: (await chatCostsFor(ctx)).message, maxLength: ctx.site.messageLength, freeMessages: ctx.site.freeMessages,
      });
      signupMessage = { status: 'sent', conversation_id: sent.message.conversation_id, credits: sent.credits };
    } catch (error) {
      if (!isAppError(error)) throw error;
      signupMessage = error.code === 'insufficient_credits' ? { status: 'draft', code: 'insufficient_credits' } : { status: 'failed', code: error.code };
    }
  }
  const user = await ctx.services.accounts.apiUser(userId);
  if (!user) throw authenticationRequired();
  return { user, ...(signupMessage ? { signup_message: signupMessage } : {}) };
}
