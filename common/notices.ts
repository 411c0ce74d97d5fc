import { z } from 'zod';
import { emailSchema } from './schemas.ts';
import { textSchema, toId, visibleLength } from './input.ts';

/**
 * Notices of illegal or unacceptable content (EU Digital Services Act, Art. 16): what anyone,
 * member or visitor, may report on /complaints, and the rules the form and the server share.
 */

export const NOTICE_KINDS = ['profile', 'photo', 'message', 'other'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NOTICE_REASONS = ['illegal', 'fake_or_scam', 'minor', 'harassment', 'intellectual_property', 'other'] as const;
export type NoticeReason = (typeof NOTICE_REASONS)[number];

/** Received → in review → decided (content removed, or no action). */
export const NOTICE_STATUSES = ['received', 'in_review', 'removed', 'no_action'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
export const NOTICE_OUTCOMES = ['removed', 'no_action'] as const;
export type NoticeOutcome = (typeof NOTICE_OUTCOMES)[number];

/**
 * Reasons whose report speaks for itself: a fake profile, or a minor on the site. Every other
 * reason needs the reporter's explanation of why the content is illegal or breaks the terms (Art. 16(2)(a)).
 */
const SELF_EXPLAINING: readonly NoticeReason[] = ['fake_or_scam', 'minor'];
export const explanationRequired = (reason: NoticeReason) => !SELF_EXPLAINING.includes(reason);
/**
 * Art. 16(2)(c): a notice about child sexual abuse material need not name the reporter. The
 * e-mail address is still asked: it is where the reference and the outcome go.
 */
export const nameRequired = (reason: NoticeReason) => reason !== 'minor';

export const NOTICE_EXPLANATION_MIN = 10;
export const NOTICE_EXPLANATION_MAX = 3000;
export const NOTICE_LOCATION_MAX = 500;

/** A notice's reference: three groups of four from an alphabet without look-alikes (0/O, 1/I/L, U/V). */
export const NOTICE_REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';
export const NOTICE_REFERENCE = /^[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/;
/** The follow link's token: 32 random bytes, base64url. */
export const NOTICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const text = (min: number, max: number, key: string, multiline = false) =>
  textSchema({ min, max, multiline, tooShort: `errors.notice_${key}_required`, tooLong: `errors.notice_${key}_too_long` });

const once = (...fields: string[]) => ({
  when: (payload: { issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }> }) => !payload.issues.some((i) => fields.includes(String(i.path?.[0]))),
});

/** The notice form (/complaints), the same in the browser and in the page action. */
export const noticeSchema = z
  .object({
    kind: z.enum(NOTICE_KINDS, { error: 'errors.notice_kind_required' }),
    /** A profile, photo or message id; for "other", where the content is (a link or a description). */
    content: text(1, NOTICE_LOCATION_MAX, 'content'),
    reason: z.enum(NOTICE_REASONS, { error: 'errors.notice_reason_required' }),
    explanation: text(0, NOTICE_EXPLANATION_MAX, 'explanation', true),
    name: text(0, 100, 'name'),
    email: emailSchema,
    /** Art. 16(2)(d): the reporter confirms in good faith that the notice is accurate and complete. */
    bona_fide: z.boolean({ error: 'errors.notice_bona_fide_required' }).refine((v) => v, 'errors.notice_bona_fide_required'),
  })
  // Each rule that reads two fields runs once those fields are valid on their own, so that every field's
  // error shows at once (an object refinement would wait until every field is valid).
  .refine((v) => v.kind === 'other' || toId(v.content) !== null, { path: ['content'], message: 'errors.notice_content_id_invalid', ...once('kind', 'content') })
  .refine((v) => !explanationRequired(v.reason) || visibleLength(v.explanation) >= NOTICE_EXPLANATION_MIN, {
    path: ['explanation'], message: 'errors.notice_explanation_required', ...once('reason', 'explanation'),
  })
  .refine((v) => !nameRequired(v.reason) || visibleLength(v.name) >= 2, { path: ['name'], message: 'errors.notice_name_required', ...once('reason', 'name') });
export type NoticeInput = z.output<typeof noticeSchema>;

/** What the follow page shows a reporter (no personal data of anyone else). */
export interface NoticeView {
  reference: string;
  kind: NoticeKind;
  content: string;
  reason: NoticeReason;
  status: NoticeStatus;
  decision: string | null;
  created_at: string;
  updated_at: string;
  decided_at: string | null;
}
