import { Hono } from 'hono';
import { SMS_CODE_TTL_MINUTES } from '#common/constants.ts';
import { directDebitConfirmSchema, directDebitStartSchema } from '#common/direct-debit.ts';
import type { AppEnv } from '../http/context.ts';
import { rateLimit, validBody } from '../http/helpers.ts';
import { confirmDirectDebit, startDirectDebit } from './direct-debit-pages.server.ts';

/** The JSON side of /directdebit (docs/decisions/034): the same schemas and use cases as the page's form. */
export const directDebitRoutes = new Hono<AppEnv>()
  /** Step 1: the mandate's details; a code goes to the mobile number. */
  .post('/directdebit.php', async (c) => {
    const ctx = c.get('ctx');
    const input = await validBody(c, directDebitStartSchema);
    await rateLimit(c, ctx.services.rateLimits.smsCodes);
    const started = await startDirectDebit(ctx, input);
    return c.json({ request: started.id, phone: started.phone, expires_in: SMS_CODE_TTL_MINUTES * 60 }, 201);
  })

  /** Step 2: the code; the order and its direct debit (a repeated confirmation answers the same order). */
  .post('/directdebit-confirm.php', async (c) => {
    const ctx = c.get('ctx');
    const input = await validBody(c, directDebitConfirmSchema);
    return c.json(await confirmDirectDebit(ctx, input), 201);
  });
