import type { ChatPrices } from '#common/api-types.ts';
import { chatCosts } from '#common/chat.ts';
import type { RequestContext } from '../http/context.ts';

/**
 * What the chat's paid actions cost the signed-in member: credits from the site's settings (with the
 * minimum message cost of their country), and money at the rate of the smallest bundle sold in their
 * currency, which is what a member short of credits buys.
 */
export async function chatPricesFor(ctx: RequestContext): Promise<ChatPrices> {
  const costs = await chatCostsFor(ctx);
  const packages = await ctx.services.payments.packages(costs.currency);
  const smallest = packages.reduce<(typeof packages)[number] | null>((min, p) => (!min || p.credits < min.credits ? p : min), null);
  return {
    message: costs.message, gift: costs.gift, photo: costs.photo,
    credit_price: smallest ? { amount: smallest.amount, credits: smallest.credits, currency: smallest.currency } : null,
  };
}

/** The credits the chat's paid actions cost the signed-in member (no money: sending needs no bundle lookup). */
export async function chatCostsFor(ctx: RequestContext) {
  const user = await ctx.user();
  return chatCosts(ctx.site, user?.profile.country ?? ctx.geoipCountry ?? ctx.site.countries[0]);
}
