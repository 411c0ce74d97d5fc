import { z } from 'zod';
import { pageBounceSchema } from '../page-bounce.ts';
import { pushStateSchema } from './accounts.ts';
import { contracts, staffAuth } from './contract.ts';
import { isoDateTime } from './shapes.ts';

export const activityContracts = contracts({
  push: {
    method: 'get', path: '/api/push.php', auth: 'member', summary: 'The member\'s push state and the key to subscribe with',
    responses: { 200: { description: 'The push state.', schema: z.strictObject({ push: z.strictObject({ state: pushStateSchema, public_key: z.string() }) }) } },
  },
  pageHidden: {
    method: 'post', path: '/api/page-hidden.php', summary: 'Beacon: a page became hidden',
    description: 'Records when the member was last active.',
    responses: { 204: { description: 'Always.' } },
  },
  pageBounce: {
    method: 'post', path: '/api/page-bounce.php', summary: 'Beacon from a page opened with ?lb: how long the visitor stayed',
    body: pageBounceSchema,
    responses: { 204: { description: 'Recorded.' } },
  },
  pageBounceReport: {
    method: 'get', path: '/api/page-bounce.php', auth: staffAuth('admin'), summary: 'The last 7 days of page bounces',
    description: 'Admins of the request\'s site, through a console session or a staff API token with the admin scope.',
    responses: {
      200: {
        description: 'Per path the visits and the median stay, and the newest records.',
        schema: z.strictObject({
          paths: z.array(z.strictObject({ path: z.string(), visits: z.number().int(), median_seconds: z.number() })),
          latest: z.array(z.strictObject({
            path: z.string(), seconds: z.number().int(), network: z.string().nullable(), ref: z.string().nullable(), created_at: isoDateTime,
          })),
        }),
      },
    },
  },
});
