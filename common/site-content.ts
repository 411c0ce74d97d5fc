import { z } from 'zod';
import { textSchema } from './input.ts';
import { LANDER_NAMES, SLUGLESS_LANDERS, URL_WORD } from './landers.ts';
import { TRACKING_KEYS, trackingValueSchema } from './tracking.ts';

/**
 * A site's own short paths, static page texts and mail texts as the operator console edits them (issue 27, decision
 * 072): one schema per form, checked by the form before sending and by the console's use case before anything is
 * stored. Every message is an i18n key, shown beside its field.
 */

/** The static pages of content/<lang>/<slug>.md. */
export const PAGE_SLUGS = ['terms', 'privacy', 'cookies', 'ban', 'return-policy', 'faq', 'service', 'complaints'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

/**
 * First path words a token may not take: the app's own top-level pages (a test keeps this list in step with
 * app/routes.ts) and the server's paths outside the pages. A route would win over the token anyway, so such a token
 * could never be reached.
 */
export const RESERVED_TOKENS: readonly string[] = [
  'account', 'account-deleted', 'activate', 'api', 'appeals', 'assets', 'chats', 'complaints', 'complete-signup', 'console',
  'credits', 'delete-account', 'directdebit', 'entry-warning', 'favicon', 'lang-config', 'landers', 'likes', 'locales', 'login',
  'logout', 'mail-change', 'match-finder', 'members', 'notifications', 'pages', 'photos', 'premium', 'pricing', 'profile',
  'report', 'reports', 'reset-password', 'robots', 'sign-out', 'signup', 'signup-matches', 'site', 'sitemap', 'statements',
  'swipe-game', 'test-checkout', 'transactions', 'translations', 'well-known',
];

const optionalTracking = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), trackingValueSchema.optional());

/** A short path: its token, and either a lander (with an optional slug) or a static page, with tracking parameters. */
export const pageTokenFormSchema = z.object({
  /** The token (`path`, so that forms echo it back: values of fields named like secrets never travel back). */
  path: z.string({ error: 'errors.token_invalid' }).trim().regex(URL_WORD, 'errors.token_invalid')
    .refine((t) => !RESERVED_TOKENS.includes(t), 'errors.token_reserved'),
  /** 'lander:<name>' or 'page:<slug>': one choice in the form. */
  target: z.enum([...LANDER_NAMES.map((n) => `lander:${n}` as const), ...PAGE_SLUGS.map((p) => `page:${p}` as const)], 'errors.invalid_choice'),
  slug: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string({ error: 'errors.invalid_input' }).max(60, 'errors.invalid_input')
    .refine((s) => s === '' || URL_WORD.test(s), 'errors.token_invalid')).default(''),
  ...Object.fromEntries(TRACKING_KEYS.map((k) => [k, optionalTracking])) as Record<(typeof TRACKING_KEYS)[number], typeof optionalTracking>,
}).superRefine((v, ctx) => {
  if (v.slug && (v.target.startsWith('page:') || SLUGLESS_LANDERS.includes(v.target.slice('lander:'.length) as never))) {
    ctx.addIssue({ code: 'custom', path: ['slug'], message: 'errors.slug_not_taken' });
  }
});

export type PageTokenForm = z.output<typeof pageTokenFormSchema>;

/** A static page's text in one language: markdown with `# Title` on its first line, as the files in content/ are. */
export const pageTextFormSchema = z.object({
  markdown: textSchema({ max: 100_000, min: 1, tooLong: 'errors.field_too_long', tooShort: 'errors.field_required', multiline: true })
    .refine((md) => /^# \S/.test(md), 'errors.page_title_missing'),
});

/** Placeholders in a text: `{{name}}`. */
export const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];

/** The parts of a mail a site may word itself (the link is always the mail's button). */
export const MAIL_PARTS = ['subject', 'intro', 'button', 'note'] as const;
export type MailPart = (typeof MAIL_PARTS)[number];

/** The mails a site may word itself. */
export const MAIL_KINDS = [
  'activation', 'password_reset', 'email_change', 'reactivation', 'new_message', 'new_like', 'new_match', 'profile_visit',
  'photo_approved', 'photo_rejected',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

const mailPart = (max: number, multiline: boolean) => z.preprocess((v) => (v === undefined ? '' : v), textSchema({ max, tooLong: 'errors.field_too_long', multiline }));

/** A mail's wording in one language: an empty part keeps the translation. Placeholders are checked by the use case. */
export const mailTextFormSchema = z.object({
  subject: mailPart(200, false),
  intro: mailPart(4000, true),
  button: mailPart(80, false),
  note: mailPart(2000, true),
});

/**
 * The placeholder rule of a mail text: a part may use only the placeholders the mail has, and must keep every one its
 * default wording in that language uses (a subject that drops `{{sender}}` would no longer say who wrote). The field's
 * error, or null when the text passes.
 */
export function placeholderError(text: string, required: readonly string[], allowed: readonly string[]): string | null {
  const used = placeholdersOf(text);
  if (used.some((p) => !allowed.includes(p))) return 'errors.placeholder_unknown';
  if (required.some((p) => !used.includes(p))) return 'errors.placeholder_missing';
  return null;
}
