import { z } from 'zod';
import { textSchema } from './input.ts';

/**
 * Member reports and statements of reasons (EU DSA Art. 16, 17, 20; decision 057): what a member may report from a
 * profile or a chat, the catalogues of reasons and grounds, and the shapes the pages, the API and the server share.
 */

/** What a report is about: a profile (its name or about-me text), one of its photos, or a message of a conversation. */
/** Why a member is banned (the console's ban form, `npm run members:ban`); fake and scammer bans refund what others spent on them. */
export const BAN_REASONS = ['fake', 'scammer', 'abuse', 'underage', 'other'] as const;
export type BanReason = (typeof BAN_REASONS)[number];

export const REPORT_KINDS = ['profile', 'photo', 'message'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The reasons a member picks from (translated as reports.reasons.<key>). */
export const REPORT_REASONS = ['fake', 'scam', 'harassment', 'sexual', 'minor', 'hate', 'spam', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Open until a moderator decides it; then action was taken, or none. */
export const REPORT_STATUSES = ['open', 'actioned', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_TEXT_MAX = 1000;
export const APPEAL_TEXT_MIN = 10;
export const APPEAL_TEXT_MAX = 3000;

/** What a decision restricted (translated as statements.restrictions.<key>). */
export const RESTRICTIONS = ['photo_removed', 'text_removed', 'message_hidden', 'suspended', 'banned'] as const;
export type Restriction = (typeof RESTRICTIONS)[number];

/**
 * The grounds a decision rests on: a clause of the site's terms or a law (translated as statements.grounds.<key>,
 * with the clause or the law named in the text). The catalogue is the same for every language; its wording is not.
 */
export const GROUNDS = {
  terms_fake_profile: 'terms',
  terms_scam: 'terms',
  terms_harassment: 'terms',
  terms_sexual_content: 'terms',
  terms_minor: 'terms',
  terms_hate: 'terms',
  terms_spam: 'terms',
  terms_photo_rules: 'terms',
  terms_general: 'terms',
  law_illegal_content: 'law',
  law_child_protection: 'law',
} as const satisfies Record<string, 'terms' | 'law'>;
export type Ground = keyof typeof GROUNDS;
export const GROUND_KEYS = Object.keys(GROUNDS) as [Ground, ...Ground[]];

/** What a moderator may do with a report; which one fits depends on what was reported. */
export const REPORT_ACTIONS = ['dismiss', 'remove_photo', 'remove_about', 'hide_message', 'ban'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export const ACTIONS_FOR: Record<ReportKind, readonly ReportAction[]> = {
  profile: ['dismiss', 'remove_about', 'ban'],
  photo: ['dismiss', 'remove_photo', 'ban'],
  message: ['dismiss', 'hide_message', 'ban'],
};

/** How long after a decision its member may appeal it (DSA Art. 20(1): at least six months). */
export const APPEAL_WINDOW_DAYS = 183;

/** A statement's link token: 32 random bytes, base64url. */
export const STATEMENT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The report sheet, the same in the browser and on the server. */
export const reportSchema = z.object({
  profile_id: z.coerce.number().int().positive().max(2_147_483_647),
  kind: z.enum(REPORT_KINDS, { error: 'errors.report_kind_required' }),
  /** The photo's or the message's id; none for a profile. */
  content_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  reason: z.enum(REPORT_REASONS, { error: 'errors.report_reason_required' }),
  text: textSchema({ max: REPORT_TEXT_MAX, multiline: true, tooLong: 'errors.report_text_too_long' }).default(''),
  /** The form sends "on"; the API true. */
  block: z.union([z.boolean(), z.literal('on')]).optional().transform((v) => v === true || v === 'on'),
});
export type ReportInput = z.input<typeof reportSchema>;

export const appealSchema = z.object({
  text: textSchema({ min: APPEAL_TEXT_MIN, max: APPEAL_TEXT_MAX, multiline: true, tooShort: 'errors.appeal_text_required', tooLong: 'errors.appeal_text_too_long' }),
});

/** A report as its reporter sees it. */
export interface MyReport {
  id: number;
  profile_id: number;
  profile_name: string | null;
  kind: ReportKind;
  content_id: number | null;
  reason: ReportReason;
  text: string;
  status: ReportStatus;
  created_at: string;
  decided_at: string | null;
}

/** A statement of reasons as the member it concerns sees it. */
export interface StatementView {
  id: number;
  restriction: Restriction;
  /** What was restricted: a photo, the about-me text, a message, the account. */
  content: { kind: 'photo' | 'chat_photo' | 'about' | 'name' | 'message' | 'account'; id: number | null };
  suspended_until: string | null;
  facts: string;
  ground: Ground;
  basis: 'terms' | 'law';
  automated: boolean;
  /** A member's report or a /complaints notice led to it (never who sent it). */
  source: 'report' | 'notice' | 'own_initiative';
  status: 'in_force' | 'reversed';
  created_at: string;
  appeal_until: string;
  appeal: { status: 'open' | 'decided'; outcome: 'reversed' | 'confirmed' | null; text: string; created_at: string; decided_at: string | null } | null;
  can_appeal: boolean;
}
