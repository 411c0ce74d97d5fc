import type { CreditPackage } from '#common/api-types.ts';
import { discountCodeSchema } from '#common/discounts.ts';
import type { RequestContext } from '../http/context.ts';
import { requireMember } from '../actor.ts';

/**
 * The credits page's prices with the member's active discount: the same rule that prices the order
 * (discounts.priceOrder), so what the page shows is what is charged. A code may come in the link as
 * `?code=` or `?discount=` (also from the code field, a plain GET form); a refused one comes back with
 * its reason in the member's language and the other discounts still apply.
 */
export async function discountsFor(ctx: RequestContext, packages: CreditPackage[], url: URL) {
  const raw = url.searchParams.get('discount') ?? url.searchParams.get('code');
  const t = (key: string, params?: Record<string, unknown>) => ctx.translator.t(ctx.lang, key, params);
  let code: string | null = null;
  let codeError: string | null = null;
  if (raw !== null && raw.trim() !== '') {
    const parsed = discountCodeSchema.safeParse(raw);
    if (!parsed.success) codeError = t('errors.discount_code_invalid');
    else {
      // Codes in links count against the same limit as the code look-up, so the page is no way to guess them.
      const wait = await ctx.services.rateLimits.discountCodes.hit(`member:${requireMember(ctx.actor).userId}`);
      if (wait > 0) codeError = t('errors.too_many_requests', { minutes: Math.ceil(wait / 60) });
      else code = parsed.data;
    }
  }
  const quote = await ctx.services.discounts.quote(ctx.actor, packages, code);
  if (quote.error) codeError = t(`errors.${quote.error.code}`, quote.error.params);
  return { prices: quote.prices, code: quote.code, codeRequested: raw?.trim() || null, codeError };
}
