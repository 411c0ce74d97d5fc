import { SMS_CODE_TTL_MINUTES } from '#common/constants.ts';
import { paymentContracts } from '#common/contracts/payments.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { rateLimit } from '../http/helpers.ts';

/** The JSON side of /directdebit (docs/decisions/034): the same schemas and use cases as the page's form. */
export const directDebitRoutes = new ApiRoutes()
  /** Step 1: the mandate's details; a code goes to the mobile number. */
  .endpoint(paymentContracts.directDebit, async (c, { body }) => {
    const ctx = c.get('ctx');
    // Counted once the details are well formed: a mistyped IBAN costs no code.
    await rateLimit(c, ctx.services.rateLimits.smsCodes);
    const started = await ctx.services.directDebit.start(ctx.actor, { form: body, discountCode: null, language: ctx.lang });
    return c.json({ request: started.id, phone: started.phone, expires_in: SMS_CODE_TTL_MINUTES * 60 }, 201);
  })

  /** Step 2: the code; the order and its direct debit (a repeated confirmation answers the same order). */
  .endpoint(paymentContracts.directDebitConfirm, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.directDebit.confirm(ctx.actor, { requestId: body.request, code: body.code }), 201);
  });
