import { currencyForCountry } from './constants.ts';

/** A conversation shows at most its newest this many messages; the chat warns when older ones are left out. */
export const CHAT_HISTORY_LIMIT = 200;

/** The settings that price the paid actions of the chat. */
export interface ChatPriceSettings {
  messageCredits: number;
  giftCredits: number;
  photoCredits: number;
  minimumMessageCosts: Record<string, { costs: number; currency: string }>;
}

/** Credits a message, a gift and a photo cost a sender from this country, and the currency their prices show in. */
export function chatCosts(site: ChatPriceSettings, country: string | null | undefined) {
  const minimum = country ? site.minimumMessageCosts[country] : undefined;
  return {
    message: Math.max(site.messageCredits, minimum?.costs ?? 0),
    gift: site.giftCredits,
    photo: site.photoCredits,
    currency: minimum?.currency ?? currencyForCountry(country),
  };
}

/** What credits cost in money: the bundle a member would buy to top up (amount in cents for `credits`). */
export interface CreditPrice {
  amount: number;
  credits: number;
  currency: string;
}

/** The money `credits` cost at this bundle's rate, in cents (rounded up: the price shown is never too low). */
export function creditsInCents(credits: number, price: CreditPrice): number {
  return Math.ceil((credits * price.amount) / price.credits);
}
