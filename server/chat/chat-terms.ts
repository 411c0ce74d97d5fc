import { asc, eq } from 'drizzle-orm';
import type { ChatPrices, CreditPackage, Gift } from '#common/api-types.ts';
import { chatCosts } from '#common/chat.ts';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { gifts, profiles } from '../db/schema.ts';
import type { ChatSite } from './chat-send.ts';
import { giftColumns, toGift } from './chat-messages.ts';

/** The gift catalogue and what the chat's paid actions cost a member, as their site and country price them. */
export function createChatTerms(deps: {
  db: Db;
  site: (siteId: number) => Promise<ChatSite & { niche: number }>;
  /** The bundles sold in a currency: money prices are at the rate of the smallest one. */
  packages: (currency: string) => Promise<CreditPackage[]>;
  freeMessagesLeft: (actor: Actor) => Promise<number>;
}) {
  const { db } = deps;

  /** The gift catalogue, in its order. */
  async function catalogue(): Promise<Gift[]> {
    const rows = await db.select(giftColumns).from(gifts).where(eq(gifts.active, true)).orderBy(asc(gifts.sort), asc(gifts.id));
    return rows.map(toGift);
  }

  /**
   * What the chat's paid actions cost the member: credits from their site's settings (with the minimum message cost
   * of their country), and money at the rate of the smallest bundle sold in their currency, which is what a member
   * short of credits buys.
   */
  async function prices(actor: Actor, site: ChatSite): Promise<ChatPrices> {
    const { userId } = requireMember(actor);
    const [profile] = await db.select({ country: profiles.country }).from(profiles).where(eq(profiles.userId, userId));
    const costs = chatCosts(site, profile?.country);
    const packages = await deps.packages(costs.currency);
    const smallest = packages.reduce<CreditPackage | null>((min, p) => (!min || p.credits < min.credits ? p : min), null);
    return {
      message: costs.message, gift: costs.gift, photo: costs.photo,
      credit_price: smallest ? { amount: smallest.amount, credits: smallest.credits, currency: smallest.currency } : null,
    };
  }

  return {
    gifts: catalogue,

    /**
     * What a member writes under in the chat, for GET /api/gifts.php and the conversation pages alike: the gift
     * catalogue, the prices, the longest text their site takes, their free messages left and the site's niche (its
     * suggested first messages).
     */
    async terms(actor: Actor) {
      const { siteId } = requireMember(actor);
      const site = await deps.site(siteId);
      const [giftList, priceList, freeMessagesLeft] = await Promise.all([catalogue(), prices(actor, site), deps.freeMessagesLeft(actor)]);
      return { gifts: giftList, prices: priceList, maxLength: site.messageLength, freeMessagesLeft, niche: site.niche };
    },
  };
}
