import { Hono } from 'hono';
import { messageSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { idempotencyKey, jsonBody, parse, rateLimit, requireId, requireUserId } from '../http/helpers.ts';
import { AppError } from '../infra/errors.ts';

export const chatRoutes = new Hono<AppEnv>()
  /** Body {profile_id}: "I am typing to this member", passed on live to their open tabs. */
  .post('/typing.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const recipientId = requireId((await jsonBody(c)).profile_id, 'profile_id');
    await rateLimit(c, [ctx.services.rateLimits.typingPerMinute], String(userId));
    await ctx.services.chat.typing(userId, recipientId);
    return c.json({ ok: true });
  })

  .get('/chats.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ chats: await ctx.services.chat.list(requireUserId(c)) });
  })

  /** Body {conversation: id}. */
  .delete('/chat.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    const raw = body.conversation;
    const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : raw;
    await ctx.services.chat.remove(userId, requireId(id, 'conversation'));
    return c.json({ ok: true });
  })

  /** ?conversation=id (or ?profile=id): the messages, oldest first; marks the conversation read. */
  .get('/messages.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const profileParam = c.req.query('profile');
    // `after` is the last message id the client has; 0 (or nothing) asks for the whole conversation.
    const afterParam = c.req.query('after');
    const after = afterParam === undefined || afterParam === '' || afterParam === '0' ? 0 : requireId(afterParam, 'after');
    let convId: number | null;
    if (profileParam) {
      const profileId = requireId(profileParam, 'profile');
      await ctx.services.profiles.detail(userId, profileId);
      convId = await ctx.services.chat.findWith(userId, profileId);
      if (!convId) return c.json({ conversation: null, profile_id: profileId, messages: [] });
    } else {
      convId = requireId(c.req.query('conversation'), 'conversation');
    }
    const result = await ctx.services.chat.read(userId, convId, after);
    return c.json({ conversation: { id: convId }, profile_id: result.profileId, messages: result.messages });
  })

  /** {profile_id, text} with an Idempotency-Key header: sends and charges message_credits once. */
  .post('/messages.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const key = idempotencyKey(c);
    await rateLimit(c, [ctx.services.rateLimits.messagesPerMinute, ctx.services.rateLimits.messagesPerHour], String(userId));
    const body = await jsonBody(c);
    const { text } = parse(messageSchema, body);
    const recipientId = requireId(body.profile_id, 'profile_id');
    if (text.length > ctx.site.messageLength) throw new AppError(400, 'message_too_long', { max: ctx.site.messageLength });
    const result = await ctx.services.chat.send({
      senderId: userId, recipientId, text, idempotencyKey: key, cost: ctx.site.messageCredits, maxLength: ctx.site.messageLength,
      freeMessages: ctx.site.freeMessages,
    });
    c.status(result.duplicate ? 200 : 201);
    return c.json({ message: result.message, credits: result.credits, free_messages_left: await ctx.services.chat.freeMessagesLeft(userId, ctx.site.freeMessages) });
  });
