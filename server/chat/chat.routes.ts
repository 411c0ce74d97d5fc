import { Hono } from 'hono';
import { messageSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { idempotencyKey, jsonBody, parse, positiveInt, requireUserId } from '../http/helpers.ts';
import { AppError } from '../infra/errors.ts';

export const chatRoutes = new Hono<AppEnv>()
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
    await ctx.services.chat.remove(userId, positiveInt(id));
    return c.json({ ok: true });
  })

  /** ?conversation=id (or ?profile=id): the messages, oldest first; marks the conversation read. */
  .get('/messages.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const profileParam = c.req.query('profile');
    let convId: number | null;
    if (profileParam) {
      const profileId = positiveInt(profileParam);
      await ctx.services.profiles.detail(userId, profileId);
      convId = await ctx.services.chat.findWith(userId, profileId);
      if (!convId) return c.json({ conversation: null, profile_id: profileId, messages: [] });
    } else {
      convId = positiveInt(c.req.query('conversation'));
    }
    const after = Number(c.req.query('after') ?? 0);
    const result = await ctx.services.chat.read(userId, convId, Number.isSafeInteger(after) && after > 0 ? after : 0);
    return c.json({ conversation: { id: convId }, profile_id: result.profileId, messages: result.messages });
  })

  /** {profile_id, text} with an Idempotency-Key header: sends and charges message_credits once. */
  .post('/messages.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const key = idempotencyKey(c);
    const body = await jsonBody(c);
    const { text } = parse(messageSchema, body);
    const recipientId = positiveInt(body.profile_id);
    if (text.length > ctx.site.messageLength) throw new AppError(400, 'message_too_long', { max: ctx.site.messageLength });
    const result = await ctx.services.chat.send({
      senderId: userId, recipientId, text, idempotencyKey: key, cost: ctx.site.messageCredits, maxLength: ctx.site.messageLength,
    });
    c.status(result.duplicate ? 200 : 201);
    return c.json({ message: result.message, credits: result.credits });
  });
