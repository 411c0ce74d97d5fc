import { Hono } from 'hono';
import { giftBody, messageBody, removeChatBody, viewingBody } from '#common/contracts/chat.ts';
import { profileIdBody } from '#common/contracts/shapes.ts';
import type { AppEnv } from '../http/context.ts';
import { idempotencyKey, memberRateKey, rateLimit, requireId, validBody, type C } from '../http/helpers.ts';
import { memberUpload, photoUpload, uploadBodyLimit } from '../photos/photos-api.routes.ts';
import { chatCostsFor, chatPricesFor } from './chat-prices.server.ts';

/** Chat photos have their own body limit (the upload's) instead of the JSON one. */
export const CHAT_PHOTO_PATH = '/api/chat-photo.php';

/** Texts, gifts and photos count together, per member. */
const limitMessages = (c: C) => {
  const { rateLimits } = c.get('ctx').services;
  return rateLimit(c, [rateLimits.messagesPerMinute, rateLimits.messagesPerHour], memberRateKey(c));
};

export const chatRoutes = new Hono<AppEnv>()
  /** Body {profile_id}: "I am typing to this member", passed on live to their open tabs. */
  .post('/typing.php', async (c) => {
    const ctx = c.get('ctx');
    const { profile_id: recipientId } = await validBody(c, profileIdBody);
    await rateLimit(c, [ctx.services.rateLimits.typingPerMinute], memberRateKey(c));
    await ctx.services.chat.typing(ctx.actor, recipientId);
    return c.json({ ok: true });
  })

  .get('/chats.php', async (c) => {
    const ctx = c.get('ctx');
    // The list comes as JSON from the database (chat.service.ts): sent as it is, not parsed and serialised again.
    return c.body(`{"chats":${await ctx.services.chat.listJson(ctx.actor, ctx.chatListVersion)}}`, 200, { 'Content-Type': 'application/json' });
  })

  /** Body {conversation: id} (or {conversation: {id}}), or {profile_id}: every conversation with that profile. */
  .delete('/chat.php', async (c) => {
    const ctx = c.get('ctx');
    const body = await validBody(c, removeChatBody);
    if ('profile_id' in body) return c.json({ ok: true, conversations: await ctx.services.chat.removeWith(ctx.actor, body.profile_id) });
    await ctx.services.chat.remove(ctx.actor, body.conversation);
    return c.json({ ok: true, conversations: [body.conversation] });
  })

  /** The gift catalogue with what a gift and the other paid actions cost this member. */
  .get('/gifts.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ gifts: await ctx.services.chat.gifts(), prices: await chatPricesFor(ctx) });
  })

  /** {profile_id, gift_id} with an Idempotency-Key header: sends a gift and charges gift_credits once. */
  .post('/gift.php', async (c) => {
    const ctx = c.get('ctx');
    const key = idempotencyKey(c);
    await limitMessages(c);
    const { gift_id: giftId, profile_id: recipientId } = await validBody(c, giftBody);
    const result = await ctx.services.chat.send(ctx.actor, {
      recipientId, content: { kind: 'gift', giftId }, idempotencyKey: key, cost: (await chatCostsFor(ctx)).gift, maxLength: ctx.site.messageLength,
    });
    c.status(result.duplicate ? 200 : 201);
    return c.json({ message: result.message, credits: result.credits });
  })

  /** multipart/form-data `photo` and `profile_id`, with an Idempotency-Key header: sends a photo and charges photo_credits once. */
  .post(
    '/chat-photo.php',
    memberUpload,
    uploadBodyLimit,
    async (c) => {
      const ctx = c.get('ctx');
      const key = idempotencyKey(c);
      await limitMessages(c);
      const { file, fields } = await photoUpload(c);
      const recipientId = requireId(fields.profile_id, 'profile_id');
      const result = await ctx.services.chat.send(ctx.actor, {
        recipientId, content: { kind: 'photo', photo: file }, idempotencyKey: key, cost: (await chatCostsFor(ctx)).photo,
        maxLength: ctx.site.messageLength,
      });
      c.status(result.duplicate ? 200 : 201);
      return c.json({ message: result.message, credits: result.credits });
    },
  )

  /**
   * Body {conversation: id | null}: the conversation this member is looking at now (null: none). While
   * it is on screen, its new messages send no push or e-mail. Tabs repeat it while visible; it lapses by itself.
   */
  .post('/viewing.php', async (c) => {
    const ctx = c.get('ctx');
    const { conversation } = await validBody(c, viewingBody);
    await ctx.services.chat.setViewing(ctx.actor, conversation);
    return c.json({ ok: true });
  })

  /** ?conversation=id (or ?profile=id): the messages, oldest first; marks the conversation read. */
  .get('/messages.php', async (c) => {
    const ctx = c.get('ctx');
    const profileParam = c.req.query('profile');
    // `after` is the last message id the client has; 0 (or nothing) asks for the whole conversation.
    const afterParam = c.req.query('after');
    const after = afterParam === undefined || afterParam === '' || afterParam === '0' ? 0 : requireId(afterParam, 'after');
    if (profileParam) {
      const profileId = requireId(profileParam, 'profile');
      const opened = await ctx.services.chat.openWith(ctx.actor, profileId, after);
      if (!opened.conversationId) return c.json({ conversation: null, profile_id: profileId, messages: [] });
      return c.json({ conversation: { id: opened.conversationId }, profile_id: profileId, messages: opened.messages, truncated: opened.truncated });
    }
    const convId = requireId(c.req.query('conversation'), 'conversation');
    const result = await ctx.services.chat.read(ctx.actor, convId, after);
    return c.json({ conversation: { id: convId }, profile_id: result.profileId, messages: result.messages, truncated: result.truncated });
  })

  /** {profile_id, text} with an Idempotency-Key header: sends and charges message_credits once. */
  .post('/messages.php', async (c) => {
    const ctx = c.get('ctx');
    const key = idempotencyKey(c);
    await limitMessages(c);
    const { text, profile_id: recipientId } = await validBody(c, messageBody);
    const result = await ctx.services.chat.send(ctx.actor, {
      recipientId, content: { kind: 'text', text }, idempotencyKey: key, cost: (await chatCostsFor(ctx)).message,
      maxLength: ctx.site.messageLength, freeMessages: ctx.site.freeMessages,
    });
    c.status(result.duplicate ? 200 : 201);
    return c.json({
      message: result.message, credits: result.credits,
      // Known from the send for a member who has bought credits (none); otherwise counted.
      free_messages_left: result.freeMessagesLeft ?? (await ctx.services.chat.freeMessagesLeft(ctx.actor, ctx.site.freeMessages)),
    });
  });
