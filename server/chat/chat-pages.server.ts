import type { RequestContext } from '../http/context.ts';
import { orNotFound } from '../http/page-guards.server.ts';
import { chatPricesFor } from './chat-prices.server.ts';

/** A conversation page (/members/{id}/chat, /chats/{id}): the same opening as GET /api/messages.php?profile=, and what the page shows beside it. */
export async function conversationPageData(ctx: RequestContext, profileId: number) {
  const opened = await orNotFound(ctx.services.chat.openWith(ctx.actor, profileId));
  const [freeMessagesLeft, prices, gifts] = await Promise.all([
    ctx.services.chat.freeMessagesLeft(ctx.actor, ctx.site.freeMessages), chatPricesFor(ctx), ctx.services.chat.gifts(),
  ]);
  return {
    profile: opened.profile, conversationId: opened.conversationId, messages: opened.messages, truncated: opened.truncated, prices, gifts,
    maxLength: ctx.site.messageLength, freeMessagesLeft, niche: ctx.site.niche,
  };
}
