import { discountsFor } from './discount-pages.server.ts';
import {
  currencyForCountry, FREE_CONVERSATIONS, FREE_PHOTO_LIMIT, PAYMENT_METHODS, PREMIUM_PHOTO_LIMIT, type PaymentMethod,
} from '#common/constants.ts';
import { bundleCovering } from '#common/spend-cap.ts';
import type { RequestContext } from '../http/context.ts';

/** The payer's country: a member's profile country; a visitor's (or else the site's first) country. */
export async function payerCountry(ctx: RequestContext): Promise<string> {
  const user = await ctx.user();
  return user?.profile.country ?? ctx.geoipCountry ?? ctx.site.countries[0] ?? 'NL';
}

/** Members pay in the currency of their profile's country; visitors in their (or the site's first) country's. */
export async function currencyFor(ctx: RequestContext): Promise<string> {
  return currencyForCountry(await payerCountry(ctx));
}

/** The methods the site's provider offers this payer, per bundle. */
export async function methodsFor(ctx: RequestContext) {
  const country = await payerCountry(ctx);
  return ctx.services.payments.methods(ctx.site.id, { currency: currencyForCountry(country), country });
}

/** Bundles in the member's currency, for the credits, premium and pricing pages. */
export async function packagesFor(ctx: RequestContext) {
  const currency = await currencyFor(ctx);
  return { packages: await ctx.services.payments.packages(currency), currency, messageCredits: ctx.site.messageCredits };
}

/** What premium really changes (the rules the services enforce), for the premium and pricing pages. */
export function premiumFacts(ctx: RequestContext) {
  return {
    freePhotos: FREE_PHOTO_LIMIT, premiumPhotos: PREMIUM_PHOTO_LIMIT, freeConversations: FREE_CONVERSATIONS,
    freeMessages: ctx.site.freeMessages, messageCredits: ctx.site.messageCredits,
  };
}
export type PremiumFacts = ReturnType<typeof premiumFacts>;

/**
 * The bundle the credits page marks: `?package=` (a retry from the payment status page) or the smallest
 * bundle that covers `?need=` credits (a member short of credits for a message, gift or photo).
 */
export function chosenBundle(packages: { id: number; credits: number }[], query: URLSearchParams) {
  const method = query.get('method');
  const initialMethod = PAYMENT_METHODS.includes(method as PaymentMethod) ? (method as PaymentMethod) : null;
  const packageId = Number(query.get('package'));
  const chosen = packages.find((p) => p.id === packageId);
  if (chosen) return { highlightId: chosen.id, reason: 'chosen' as const, need: null, initialMethod };
  const need = Number(query.get('need'));
  if (Number.isInteger(need) && need > 0 && need <= 1_000_000) {
    const covering = bundleCovering(packages, need);
    if (covering) return { highlightId: covering.id, reason: 'need' as const, need, initialMethod };
  }
  return { highlightId: null, reason: null, need: null, initialMethod };
}

/**
 * What a purchase form needs (the credits and premium pages): the bundles, the methods the site's provider
 * offers this payer (null while it does not answer: the page still shows the bundles), the prices with the
 * member's active discount (the rule that prices the order, so the price shown is the price charged), and
 * the bundle the page marks.
 */
export async function purchaseFor(ctx: RequestContext, url: URL) {
  const bundles = await packagesFor(ctx);
  const methods = await methodsFor(ctx).catch(() => null);
  const discounts = await discountsFor(ctx, bundles.packages, url);
  return { ...bundles, methods, ...discounts, choice: chosenBundle(bundles.packages, url.searchParams) };
}

export type PurchaseData = Awaited<ReturnType<typeof purchaseFor>>;
