import { z } from 'zod';
import { wordFilterSchema } from './chat.ts';
/**
 * The 8 e-mail categories (spec section 1), named for what a member receives. What a member does here is mailed to
 * them unless they turn it off; marketing is off until they turn it on (decision 068).
 */
export const EMAIL_CATEGORIES = [
  'new_message', 'new_like', 'new_match', 'profile_visit', 'gift', 'photo_approved', 'special_offers', 'newsletter',
] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];

/** Advertising mail: sent only to members who opted in (GDPR Art. 6(1)(a), ePrivacy Art. 13). */
export const MARKETING_CATEGORIES = ['special_offers', 'newsletter'] as const satisfies readonly EmailCategory[];

/** PUT /api/notifications.php: only what is given changes. */
export const notificationsUpdateSchema = z.object({
  email: z.partialRecord(z.enum(EMAIL_CATEGORIES), z.boolean()).optional(),
  invisible: z.boolean().optional(),
  read_receipts: z.boolean().optional(),
  hide_fictional: z.boolean().optional(),
  word_filter: wordFilterSchema.optional(),
});
export type NotificationsUpdate = z.infer<typeof notificationsUpdateSchema>;

/**
 * The settings page's switches as a form: every switch is sent, a switch that is off is absent from
 * the form, so absent means off (the JSON endpoint, by contrast, changes only what it is given).
 */
export const notificationSwitchesSchema = z.object({
  email: z.object(Object.fromEntries(EMAIL_CATEGORIES.map((c) => [c, z.boolean({ error: 'errors.invalid_input' }).default(false)])) as Record<EmailCategory, z.ZodDefault<z.ZodBoolean>>).default(
    Object.fromEntries(EMAIL_CATEGORIES.map((c) => [c, false])) as Record<EmailCategory, boolean>,
  ),
  invisible: z.boolean({ error: 'errors.invalid_input' }).default(false),
  read_receipts: z.boolean({ error: 'errors.invalid_input' }).default(false),
  hide_fictional: z.boolean({ error: 'errors.invalid_input' }).default(false),
});

/**
 * Why e-mail to a member stopped (spec section 8), kept in users.notifications_disabled.
 * spam_complaint: the member marked a mail as spam; bounce: the address does not accept mail;
 * list_unsubscribe: the member unsubscribed from all mail through their mail program.
 */
export const DISABLED_REASONS = ['spam_complaint', 'bounce', 'list_unsubscribe'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** GET/PUT /api/notifications.php */
export interface NotificationSettings {
  email: Record<EmailCategory, boolean>;
  notifications_disabled: string[];
  invisible: boolean;
  /** Read receipts both ways (off: neither shown to others nor seen). */
  read_receipts: boolean;
  /** Fictional profiles left out of search, the swipe deck and the like overlay (the site's default until the member chooses). */
  hide_fictional: boolean;
  /** Words and phrases whose messages are hidden from this member (and cost their sender nothing). */
  word_filter: string[];
}

/** Account deletion (spec: deletion with reasons and alternative offers). */
export const DELETE_REASONS = ['found_partner', 'not_enough_matches', 'too_expensive', 'too_many_emails', 'privacy', 'other'] as const;
export type DeleteReason = (typeof DELETE_REASONS)[number];

/** Spec section 9: a deleted account can be reactivated by e-mail link for 14 days. */
export const REACTIVATION_DAYS = 14;
