import type { RequestContext } from '../http/context.ts';
import { orNotFound } from '../http/page-guards.server.ts';

export async function conversationPageData(ctx: RequestContext, userId: number, profileId: number) {
  const profile = await orNotFound(ctx.services.profiles.detail(userId, profileId));
  const convId = await ctx.services.chat.findWith(userId, profileId);
  const messages = convId ? (await ctx.services.chat.read(userId, convId)).messages : [];
  const freeMessagesLeft = await ctx.services.chat.freeMessagesLeft(userId, ctx.site.freeMessages);
  return { profile, conversationId: convId, messages, messageCredits: ctx.site.messageCredits, maxLength: ctx.site.messageLength, freeMessagesLeft };
}
