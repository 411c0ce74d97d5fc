import { z } from 'zod';

/** POST /api/page-bounce.php: the page a visitor left and how long they stayed. */
export const pageBounceSchema = z.object({
  path: z.string({ error: 'errors.invalid_input' }).regex(/^\/[\w\-./~%]{0,199}$/, 'errors.invalid_input'),
  seconds: z.number({ error: 'errors.invalid_input' }).int('errors.invalid_input').min(0, 'errors.invalid_input').max(86_400, 'errors.invalid_input'),
});
