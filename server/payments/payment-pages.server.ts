import { currencyForCountry } from '#common/constants.ts';
import type { RequestContext } from '../http/context.ts';

/** Members pay in the currency of their profile's country; visitors in their (or the site's first) country's. */
export async function currencyFor(ctx: RequestContext): Promise<string> {
  const user = await ctx.user();
  return currencyForCountry(user?.profile.country ?? ctx.geoipCountry ?? ctx.site.countries[0]);
}

/** Bundles in the member's currency, for the credits, premium and pricing pages. */
export async function packagesFor(ctx: RequestContext) {
  const currency = await currencyFor(ctx);
  return { packages: await ctx.services.payments.packages(currency), currency, messageCredits: ctx.site.messageCredits };
}
