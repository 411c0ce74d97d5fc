import { z } from 'zod';
import { DISABLED_REASONS, EMAIL_CATEGORIES, notificationsUpdateSchema } from '../notifications.ts';
import { checkedByUseCase, contracts } from './contract.ts';
import { notificationSettingsSchema } from './shapes.ts';
import { hasOnlyAllowedCharacters } from '../input.ts';

const settings = { description: 'The notification settings.', schema: notificationSettingsSchema };
/** The link's fields, checked by the unsubscribe use case: a broken link gets a page that says so, not a JSON error. */
const unsubscribeQuery = z.object({ u: checkedByUseCase(z.string()), c: checkedByUseCase(z.enum(EMAIL_CATEGORIES)), s: checkedByUseCase(z.string()) });

export const reenableBody = z.object({ reason: z.enum(DISABLED_REASONS) });

/** The names mail providers use for the same thing. */
const MAIL_EVENT_ALIASES = { complaint: 'spam_complaint', spam: 'spam_complaint', unsubscribe: 'list_unsubscribe' } as const;
export const mailEventBody = z.object({
  email: z.string().trim().toLowerCase().max(254).refine((e) => e.includes('@') && hasOnlyAllowedCharacters(e)),
  type: z.enum([...DISABLED_REASONS, ...(Object.keys(MAIL_EVENT_ALIASES) as (keyof typeof MAIL_EVENT_ALIASES)[])])
    .transform((t) => (t in MAIL_EVENT_ALIASES ? MAIL_EVENT_ALIASES[t as keyof typeof MAIL_EVENT_ALIASES] : t as (typeof DISABLED_REASONS)[number])),
  /** The provider's diagnostic text; kept without what the database cannot store. */
  detail: z.string().optional(),
});

export const notificationContracts = contracts({
  settings: {
    method: 'get', path: '/api/notifications.php', auth: 'member', summary: 'E-mail and privacy settings',
    responses: { 200: settings },
  },
  update: {
    method: 'put', path: '/api/notifications.php', auth: 'member', summary: 'Change e-mail and privacy settings',
    body: notificationsUpdateSchema,
    responses: { 200: settings },
  },
  reenable: {
    method: 'delete', path: '/api/notifications-disabled.php', auth: 'member', summary: 'Turn e-mail on again',
    description: 'The member fixed the cause (e.g. a full mailbox).',
    body: reenableBody,
    responses: { 200: settings },
  },
  unsubscribePage: {
    method: 'get', path: '/api/unsubscribe.php', summary: 'The unsubscribe link of a category mail',
    description: 'A page with a button, because link scanners open every link in a mail.',
    query: unsubscribeQuery,
    responses: { 200: { description: 'The confirmation page.', contentType: 'text/html' } },
  },
  unsubscribe: {
    method: 'post', path: '/api/unsubscribe.php', summary: 'One-click unsubscribe (RFC 8058)',
    description: 'Turns exactly that category off, without a session.',
    query: unsubscribeQuery,
    responses: { 200: { description: 'The done page (a bad link answers a 400 page).', contentType: 'text/html' } },
  },
  mailEvent: {
    method: 'post', path: '/api/mail-events.php', summary: 'Bounces and complaints from the mail provider',
    description: 'Needs the header X-Mail-Webhook-Secret: MAIL_WEBHOOK_SECRET (without a configured secret the endpoint does not exist).',
    headers: { 'X-Mail-Webhook-Secret': { description: 'The shared secret MAIL_WEBHOOK_SECRET.', required: true } },
    body: mailEventBody,
    responses: { 200: { description: 'How many accounts stopped receiving mail.', schema: z.strictObject({ ok: z.literal(true), accounts: z.number().int().nonnegative() }) } },
  },
});
