import { chatContracts } from '#common/contracts/chat.ts';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { idempotencyKey, limitedBy, memberRateKey, needsIdempotencyKey, rateLimit } from '../http/helpers.ts';
import { memberUpload, uploadBodyLimit } from '../photos/photos-api.routes.ts';
import { AppError } from '../infra/errors.ts';
import { photoTooLarge } from '../photos/photos.service.ts';

/** Chat photos have their own body limit (the upload's) instead of the JSON one. */
export const CHAT_PHOTO_PATH = chatContracts.photo.path;

/** Texts, gifts and photos count together, per member. */
const limitMessages = limitedBy((limits) => [limits.messagesPerMinute, limits.messagesPerHour], memberRateKey);

export const chatRoutes = new ApiRoutes()
  /** Body {profile_id}: "I am typing to this member", passed on live to their open tabs. */
  .endpoint(chatContracts.typing, async (c, { body }) => {
    const ctx = c.get('ctx');
    // Counted after the body is read, as it always was: only a well-formed notice counts against the limit.
    await rateLimit(c, [ctx.services.rateLimits.typingPerMinute], memberRateKey(c));
    await ctx.services.chat.typing(ctx.actor, body.profile_id);
    return c.json({ ok: true });
  })

  .endpoint(chatContracts.chats, async (c) => {
    const ctx = c.get('ctx');
    // The list comes as JSON from the database (chat-list.ts), encoded once: sent as it is, not parsed and serialised again.
    return c.body(await ctx.services.chat.chatsAnswer(ctx.actor, ctx.chatListVersion), 200, { 'Content-Type': 'application/json' });
  })

  /** Body {conversation: id} (or {conversation: {id}}), or {profile_id}: every conversation with that profile. */
  .endpoint(chatContracts.remove, async (c, { body }) => {
    const ctx = c.get('ctx');
    if ('profile_id' in body) return c.json({ ok: true, conversations: await ctx.services.chat.removeWith(ctx.actor, body.profile_id) });
    await ctx.services.chat.remove(ctx.actor, body.conversation);
    return c.json({ ok: true, conversations: [body.conversation] });
  })

  /** The gift catalogue with what a gift and the other paid actions cost this member. */
  .endpoint(chatContracts.gifts, async (c) => {
    const ctx = c.get('ctx');
    const { gifts, prices } = await ctx.services.chat.terms(ctx.actor);
    return c.json({ gifts, prices });
  })

  /** {profile_id, gift_id} with an Idempotency-Key header: sends a gift and charges gift_credits once. */
  .endpoint(chatContracts.gift, { before: [needsIdempotencyKey, limitMessages] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    const result = await ctx.services.chat.send(ctx.actor, {
      recipientId: body.profile_id, content: { kind: 'gift', giftId: body.gift_id }, idempotencyKey: idempotencyKey(c),
    });
    return c.json({ message: result.message, credits: result.credits }, result.duplicate ? 200 : 201);
  })

  /** multipart/form-data `photo` and `profile_id`, with an Idempotency-Key header: sends a photo and charges photo_credits once. */
  .endpoint(chatContracts.photo, { before: [memberUpload, uploadBodyLimit, needsIdempotencyKey, limitMessages] }, async (c, { form }) => {
    const ctx = c.get('ctx');
    if (form.photo.size > PHOTO_MAX_BYTES) throw photoTooLarge();
    const photo = Buffer.from(await form.photo.arrayBuffer());
    const result = await ctx.services.chat.send(ctx.actor, {
      recipientId: form.profile_id, content: { kind: 'photo', photo }, idempotencyKey: idempotencyKey(c),
    });
    return c.json({ message: result.message, credits: result.credits }, result.duplicate ? 200 : 201);
  })

  /**
   * Body {conversation: id | null}: the conversation this member is looking at now (null: none). While
   * it is on screen, its new messages send no push or e-mail. Tabs repeat it while visible; it lapses by itself.
   */
  .endpoint(chatContracts.viewing, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.chat.setViewing(ctx.actor, body.conversation);
    return c.json({ ok: true });
  })

  /** ?conversation=id (or ?profile=id): the messages, oldest first; marks the conversation read. */
  .endpoint(chatContracts.messages, async (c, { query }) => {
    const ctx = c.get('ctx');
    const after = query.after ?? 0;
    if (query.profile !== undefined) {
      const profileId = query.profile;
      const opened = await ctx.services.chat.openWith(ctx.actor, profileId, after);
      if (!opened.conversationId) return c.json({ conversation: null, profile_id: profileId, messages: [] });
      return c.json({ conversation: { id: opened.conversationId }, profile_id: profileId, messages: opened.messages, truncated: opened.truncated });
    }
    const convId = query.conversation;
    if (convId === undefined) throw new AppError(400, 'invalid_input', {}, { conversation: 'errors.invalid_input' });
    const result = await ctx.services.chat.read(ctx.actor, convId, after);
    return c.json({ conversation: { id: convId }, profile_id: result.profileId, messages: result.messages, truncated: result.truncated });
  })

  /** {profile_id, text} with an Idempotency-Key header: sends and charges message_credits once. */
  .endpoint(chatContracts.send, { before: [needsIdempotencyKey, limitMessages] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    const result = await ctx.services.chat.send(ctx.actor, {
      recipientId: body.profile_id, content: { kind: 'text', text: body.text }, idempotencyKey: idempotencyKey(c),
    });
    // A text's send counts the free messages left (none for a member who has bought credits).
    return c.json({ message: result.message, credits: result.credits, free_messages_left: result.freeMessagesLeft ?? 0 }, result.duplicate ? 200 : 201);
  });
