import { currencyForCountry } from '#common/constants.ts';
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
