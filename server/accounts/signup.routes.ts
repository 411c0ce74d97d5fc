import { Hono } from 'hono';
import { signupBody } from '#common/contracts/accounts.ts';
import { messageSchema } from '#common/schemas.ts';
import { AppError, authenticationRequired, isAppError } from '../infra/errors.ts';
import { chatCostsFor } from '../chat/chat-prices.server.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, parse, rateLimit } from '../http/helpers.ts';
import { setSessionCookie } from './accounts.routes.ts';
import { trackingFrom } from '#common/tracking.ts';
import { signupAllowed } from './signup.service.ts';

export type SignupMessageResult =
  | { status: 'sent'; conversation_id: number; credits: number }
  | { status: 'draft'; code: 'insufficient_credits' }
  | { status: 'failed'; code: string };

export const signupRoutes = new Hono<AppEnv>()
  /**
   * Sign-up: {email, name, password, date_of_birth, gender, country, network?, ref?, sub1–3?,
   * profile_id?, signup_message?}. Creates the member, signs them in and answers 201 {user,
   * signup_message?}. A first message to a member is sent once the account exists and costs what any
   * message costs; without enough credits it comes back as a draft for the member to send later.
   */
  .post('/signup.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.signup);
    const body = await jsonBody(c);
    // First touch wins: the stored landing parameters, else what this request brings.
    const stored = ctx.tracking ?? {};
    const tracking = Object.keys(stored).length ? stored : trackingFrom(body);
    if (!signupAllowed(ctx.site.signups, tracking)) throw new AppError(403, 'signup_disabled');
    const input = parse(signupBody(ctx.services.clock()), body);

    let message: { profileId: number; text: string } | null = null;
    if (typeof input.profile_id === 'number' && input.signup_message?.trim()) {
      const { text } = parse(messageSchema, { text: input.signup_message });
      if (text.length > ctx.site.messageLength) throw new AppError(400, 'message_too_long', { max: ctx.site.messageLength });
      await ctx.services.signup.assertRecipient(input.profile_id);
      message = { profileId: input.profile_id, text };
    }

    const userId = await ctx.services.signup.signup(ctx.site.id, ctx.site.signupCredits, input, ctx.lang, tracking);
    const token = await ctx.services.accounts.createSession(userId, c.req.header('user-agent'));
    setSessionCookie(c, token);

    let signupMessage: SignupMessageResult | undefined;
    if (message) {
      try {
        const sent = await ctx.services.chat.send({
          senderId: userId, recipientId: message.profileId, content: { kind: 'text', text: message.text }, idempotencyKey: `signup-${userId}`,
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
    return c.json({ user, ...(signupMessage ? { signup_message: signupMessage } : {}) }, 201);
  });
