import type { RequestContext } from '../http/context.ts';
import { orNotFound } from '../http/page-guards.server.ts';
import { chatPricesFor } from './chat-prices.server.ts';

export async function conversationPageData(ctx: RequestContext, userId: number, profileId: number) {
  const profile = await orNotFound(ctx.services.profiles.detail(userId, profileId));
  const convId = await ctx.services.chat.findWith(userId, profileId);
  const history = convId ? await ctx.services.chat.read(userId, convId) : { messages: [], truncated: false };
  const [freeMessagesLeft, prices, gifts] = await Promise.all([
    ctx.services.chat.freeMessagesLeft(userId, ctx.site.freeMessages), chatPricesFor(ctx), ctx.services.chat.gifts(),
  ]);
  return {
    profile, conversationId: convId, messages: history.messages, truncated: history.truncated, prices, gifts,
    maxLength: ctx.site.messageLength, freeMessagesLeft, niche: ctx.site.niche,
  };
}
