import { SMS_CODE_TTL_MINUTES } from '#common/constants.ts';
import type { DirectDebitStart } from '#common/direct-debit.ts';
import type { RequestContext } from '../http/context.ts';
import { currencyFor, payerCountry } from './payment-pages.server.ts';

/**
 * Step 1 of a direct debit for the page and the API alike: the member's currency and country, and the SMS in
 * their language; `discountCode` is a usable code the page's link brought (the API has none).
 */
export async function startDirectDebit(ctx: RequestContext, form: DirectDebitStart, discountCode: string | null = null) {
  return ctx.services.directDebit.start(ctx.actor, {
    siteId: ctx.site.id, form, currency: await currencyFor(ctx), country: await payerCountry(ctx), discountCode,
    smsText: (code) => ctx.translator.t(ctx.lang, 'direct_debit.sms_text', { code, site: ctx.site.name, minutes: SMS_CODE_TTL_MINUTES }),
  });
}

/** Step 2: the code; the order, its mandate and the debit at the site's provider (once per request). */
export async function confirmDirectDebit(ctx: RequestContext, input: { request: string; code: string }) {
  return ctx.services.directDebit.confirm(ctx.actor, { requestId: input.request, code: input.code, baseUrl: ctx.baseUrl, country: await payerCountry(ctx) });
}
