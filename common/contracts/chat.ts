import { z } from 'zod';
import { giftSchema as giftBodySchema } from '../chat.ts';
import { messageSchema } from '../schemas.ts';
import { contracts, IDEMPOTENCY_KEY } from './contract.ts';
import { chatMessageSchema, chatPricesSchema, chatSummarySchema, giftSchema, id, idParam, okSchema, profileIdBody } from './shapes.ts';

/** By {conversation} (an id, or {id}) or by {profile_id}: every conversation with that profile. */
export const removeChatBody = z.union([
  z.object({ profile_id: idParam }),
  z.object({ conversation: z.union([idParam, z.object({ id: idParam }).transform((c) => c.id)]) }),
]);
export const giftBody = z.object({ gift_id: giftBodySchema.shape.gift_id, profile_id: idParam });
export const viewingBody = z.object({ conversation: idParam.nullable() });
export const messageBody = z.object({ text: messageSchema.shape.text, profile_id: idParam });

/** An empty parameter is none; `after` 0 asks for the whole conversation, as none does. */
const emptyIsNone = <S extends z.ZodType>(schema: S, none: string[] = ['']) => z.preprocess((v) => (none.includes(v as string) ? undefined : v), schema);
const messagesQuery = z.object({
  conversation: idParam.optional(),
  profile: emptyIsNone(idParam.optional()),
  /** The last message id the client has. */
  after: emptyIsNone(idParam.optional(), ['', '0']),
});

const paid = z.strictObject({
  message: chatMessageSchema,
  /** The member's credits after it. */
  credits: z.number().int(),
});

const sent = z.strictObject({
  message: chatMessageSchema,
  /** The member's credits after the message. */
  credits: z.number().int(),
  /** Free messages the member may still send (0 when the site has none or they are used up). */
  free_messages_left: z.number().int().nonnegative(),
});

export const chatContracts = contracts({
  typing: {
    method: 'post', path: '/api/typing.php', auth: 'member', summary: 'I am typing to this member',
    description: 'Passed on live to the other member\'s open tabs.',
    body: profileIdBody,
    responses: { 200: { description: 'Passed on.', schema: okSchema } },
  },
  chats: {
    method: 'get', path: '/api/chats.php', auth: 'member', summary: 'The member\'s conversations',
    responses: { 200: { description: 'Newest first.', schema: z.strictObject({ chats: z.array(chatSummarySchema) }) } },
  },
  remove: {
    method: 'delete', path: '/api/chat.php', auth: 'member', summary: 'Remove a conversation from the list',
    description: 'By {conversation} or by {profile_id}: every conversation with that profile.',
    body: removeChatBody,
    responses: { 200: { description: 'Removed.', schema: z.strictObject({ ok: z.literal(true), conversations: z.array(id) }) } },
  },
  gifts: {
    method: 'get', path: '/api/gifts.php', auth: 'member', summary: 'The gift catalogue and what the chat\'s paid actions cost',
    responses: { 200: { description: 'The gifts in order.', schema: z.strictObject({ gifts: z.array(giftSchema), prices: chatPricesSchema }) } },
  },
  gift: {
    method: 'post', path: '/api/gift.php', auth: 'member', summary: 'Send a gift',
    description: 'Charges gift_credits once per Idempotency-Key; a retry with the same key answers 200 with the first gift.',
    headers: IDEMPOTENCY_KEY,
    body: giftBody,
    responses: { 201: { description: 'Sent.', schema: paid }, 200: { description: 'Sent before under this Idempotency-Key.', schema: paid } },
  },
  photo: {
    method: 'post', path: '/api/chat-photo.php', auth: 'member', summary: 'Send a photo in the chat',
    description: 'Charges photo_credits once per Idempotency-Key. Stored as WebP without metadata; only the two members can fetch it.',
    headers: IDEMPOTENCY_KEY,
    form: z.object({ photo: z.file({ error: 'errors.photo_missing' }).min(1, 'errors.photo_missing'), profile_id: idParam }),
    responses: { 201: { description: 'Sent.', schema: paid }, 200: { description: 'Sent before under this Idempotency-Key.', schema: paid } },
  },
  viewing: {
    method: 'post', path: '/api/viewing.php', auth: 'member', summary: 'The conversation on screen now',
    description: 'While it is on screen its new messages send no push or e-mail; tabs repeat it, and it lapses after 45 s.',
    body: viewingBody,
    responses: { 200: { description: 'Noted.', schema: okSchema } },
  },
  messages: {
    method: 'get', path: '/api/messages.php', auth: 'member', summary: 'A conversation\'s messages',
    description: 'By ?conversation=id or ?profile=id, oldest first; ?after=id gives only newer ones. Marks the conversation read.',
    query: messagesQuery,
    responses: {
      200: {
        description: 'The messages; conversation is null when there is none with this member yet.',
        schema: z.strictObject({
          conversation: z.strictObject({ id }).nullable(), profile_id: id, messages: z.array(chatMessageSchema),
          /** Older messages were left out (the chat history limit). */
          truncated: z.boolean().optional(),
        }),
      },
    },
  },
  send: {
    method: 'post', path: '/api/messages.php', auth: 'member', summary: 'Send a message',
    description: 'Charges message_credits once per Idempotency-Key; a retry with the same key answers 200 with the first message.',
    headers: IDEMPOTENCY_KEY,
    body: messageBody,
    responses: {
      201: { description: 'Sent.', schema: sent },
      200: { description: 'Sent before under this Idempotency-Key.', schema: sent },
    },
  },
});
