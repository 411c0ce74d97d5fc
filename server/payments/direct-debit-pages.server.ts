import { SMS_CODE_TTL_MINUTES } from '#common/constants.ts';
import type { DirectDebitStart } from '#common/direct-debit.ts';
import type { RequestContext } from '../http/context.ts';
import { AppError } from '../infra/errors.ts';
import { discountsFor } from './discount-pages.server.ts';
import { currencyFor, payerCountry } from './payment-pages.server.ts';

/**
 * Step 1 of a direct debit for the page and the API alike: the bundle's price for this member now (the credits
 * page's rule; the page also honours a code in its link) and the SMS in the member's language.
 */
export async function startDirectDebit(ctx: RequestContext, form: DirectDebitStart, pageUrl?: URL) {
  const currency = await currencyFor(ctx);
  const pkg = (await ctx.services.payments.packages(currency)).find((p) => p.id === form.package_id);
  if (!pkg) throw new AppError(404, 'package_not_found', {}, { package_id: 'errors.package_not_found' });
  const { prices } = pageUrl ? await discountsFor(ctx, [pkg], pageUrl) : await ctx.services.discounts.quote(ctx.actor, [pkg], null);
  const price = prices[pkg.id];
  return ctx.services.directDebit.start(ctx.actor, {
    siteId: ctx.site.id, form, currency, country: await payerCountry(ctx),
    price: { amountCents: price.amount, discountCode: price.discount?.code ?? null },
    smsText: (code) => ctx.translator.t(ctx.lang, 'direct_debit.sms_text', { code, site: ctx.site.name, minutes: SMS_CODE_TTL_MINUTES }),
  });
}

/** Step 2: the code; the order, its mandate and the debit at the site's provider (once per request). */
export async function confirmDirectDebit(ctx: RequestContext, input: { request: string; code: string }) {
  return ctx.services.directDebit.confirm(ctx.actor, { requestId: input.request, code: input.code, baseUrl: ctx.baseUrl, country: await payerCountry(ctx) });
}
