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

/**
 * The money `credits` cost at this bundle's rate, in cents. One rule wherever a credit amount shows its money
 * (composer, gift picker, the confirmation of a gift or photo): a credit is worth the bundle's price per credit
 * rounded up to a whole cent, and N credits are N times that. The price shown is never too low, and twice the
 * credits always show twice the money (rounding the exact share of each amount showed 5 credits as €1.00 but
 * 10 credits as €1.99).
 */
export function creditsInCents(credits: number, price: CreditPrice): number {
  return credits * Math.ceil(price.amount / price.credits);
}

/** How many messages `credits` pay for at `messageCredits` each ("about N messages" on the credits page). */
export function messagesForCredits(credits: number, messageCredits: number): number {
  return messageCredits > 0 ? Math.floor(credits / messageCredits) : 0;
}
