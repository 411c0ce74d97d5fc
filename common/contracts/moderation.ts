import { z } from 'zod';
import { NOTICE_KINDS, NOTICE_REFERENCE } from '../notices.ts';
import { GROUND_KEYS, REPORT_ACTIONS, REPORT_KINDS, REPORT_REASONS } from '../reports.ts';
import { contracts, staffAuth } from './contract.ts';
import { id, idParam, isoDateTime } from './shapes.ts';

/**
 * The moderation queues of reports, DSA notices and appeals (decision 057), for moderators with a console session or a
 * staff API token: each read oldest first within the sites they reach; an item is claimed for ten minutes before it is
 * decided (another moderator's live claim answers 409 item_claimed), and a decision writes the restriction, the
 * statement of reasons and the audit row together.
 */
const moderators = 'Moderators (or admins) for the sites they reach; written to the audit log.';

const claim = {
  200: { description: 'Held for the moderator until then.', schema: z.strictObject({ claimed_until: isoDateTime }) },
};
const held = { claimed_by: id.nullable(), claimed_until: isoDateTime.nullable() };
const facts = z.string().trim().max(3000).optional();
const reference = z.string().regex(NOTICE_REFERENCE);
/** ?page=n (from 1): 50 items a page, oldest first; `has_more` says whether page n + 1 has any. */
const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).optional() });
const paged = { page: z.int(), has_more: z.boolean() };

export const queuedReportSchema = z.strictObject({
  id, site_id: id, reporter_id: id, reported_id: id, reported_name: z.string().nullable(), kind: z.enum(REPORT_KINDS),
  content_id: z.int().nullable(), reason: z.enum(REPORT_REASONS), text: z.string(), created_at: isoDateTime, ...held,
});

export const queuedNoticeSchema = z.strictObject({
  reference: z.string(), site_id: id, kind: z.enum(NOTICE_KINDS), content: z.string(), reason: z.string(), explanation: z.string(),
  created_at: isoDateTime, ...held,
});

export const queuedAppealSchema = z.strictObject({
  id, site_id: id, decision_id: id, member_id: id, restriction: z.string(), ground: z.string(), text: z.string(), created_at: isoDateTime, ...held,
});

export const queuedTextSchema = z.strictObject({
  id, site_id: id, member_id: id, field: z.enum(['name', 'about']), old_text: z.string().nullable(), new_text: z.string(),
  created_at: isoDateTime, updated_at: isoDateTime, ...held,
});

export const moderationContracts = contracts({
  reportQueue: {
    method: 'get', path: '/api/moderation-reports.php', auth: staffAuth('moderator'), summary: 'Open member reports, oldest first',
    description: `${moderators} 50 a page, with the number open and the number claimed now.`, query: pageQuery,
    responses: { 200: { description: 'The queue.', schema: z.strictObject({ items: z.array(queuedReportSchema), counts: z.strictObject({ open: z.int(), claimed: z.int() }), ...paged }) } },
  },
  claimReport: {
    method: 'post', path: '/api/moderation-report-claim.php', auth: staffAuth('moderator'), summary: 'Claim a report for ten minutes',
    description: `${moderators} 409 item_claimed while another moderator holds it; 409 report_already_decided.`,
    body: z.strictObject({ id: idParam }), responses: claim,
  },
  decideReport: {
    method: 'post', path: '/api/moderation-report-decide.php', auth: staffAuth('moderator'), summary: 'Decide a claimed report',
    description: `${moderators} The action must fit what was reported (400 action_not_for_report); every action but dismiss restricts and sends the member a statement of reasons on the ground given. 409 report_not_claimed without a live claim of one's own.`,
    body: z.strictObject({ id: idParam, action: z.enum(REPORT_ACTIONS), ground: z.enum(GROUND_KEYS), facts }),
    responses: { 200: { description: 'The outcome.', schema: z.strictObject({ status: z.enum(['actioned', 'dismissed']), decision_id: id.nullable() }) } },
  },
  noticeQueue: {
    method: 'get', path: '/api/moderation-notices.php', auth: staffAuth('moderator'), summary: 'DSA notices not decided yet, oldest first',
    description: `${moderators} 50 a page, with the number open.`, query: pageQuery,
    responses: { 200: { description: 'The queue.', schema: z.strictObject({ items: z.array(queuedNoticeSchema), counts: z.strictObject({ open: z.int() }), ...paged }) } },
  },
  claimNotice: {
    method: 'post', path: '/api/moderation-notice-claim.php', auth: staffAuth('moderator'), summary: 'Claim a notice for ten minutes',
    description: `${moderators} Its notifier then sees it under review. 409 item_claimed; 409 notice_already_decided.`,
    body: z.strictObject({ reference }), responses: claim,
  },
  decideNotice: {
    method: 'post', path: '/api/moderation-notice-decide.php', auth: staffAuth('moderator'), summary: 'Decide a claimed notice',
    description: `${moderators} \`decision\` is what the notifier reads; an action other than dismiss restricts the member the notice names, with a statement of reasons.`,
    body: z.strictObject({ reference, action: z.enum(REPORT_ACTIONS), ground: z.enum(GROUND_KEYS), facts, decision: z.string().trim().min(1).max(3000) }),
    responses: { 200: { description: 'The outcome.', schema: z.strictObject({ status: z.enum(['removed', 'no_action']), decision_id: id.nullable() }) } },
  },
  appealQueue: {
    method: 'get', path: '/api/moderation-appeals.php', auth: staffAuth('moderator'), summary: 'Open appeals, oldest first',
    description: `${moderators} 50 a page. Appeals of the moderator's own decisions are left out: another moderator decides them.`, query: pageQuery,
    responses: { 200: { description: 'The queue.', schema: z.strictObject({ items: z.array(queuedAppealSchema), counts: z.strictObject({ open: z.int() }), ...paged }) } },
  },
  claimAppeal: {
    method: 'post', path: '/api/moderation-appeal-claim.php', auth: staffAuth('moderator'), summary: 'Claim an appeal for ten minutes',
    description: `${moderators} 403 appeal_same_moderator for the moderator who made the decision; 409 item_claimed.`,
    body: z.strictObject({ id: idParam }), responses: claim,
  },
  decideAppeal: {
    method: 'post', path: '/api/moderation-appeal-decide.php', auth: staffAuth('moderator'), summary: 'Decide a claimed appeal',
    description: `${moderators} reversed lifts the restriction; either way the member is told.`,
    body: z.strictObject({ id: idParam, outcome: z.enum(['reversed', 'confirmed']) }),
    responses: { 200: { description: 'The outcome.', schema: z.strictObject({ outcome: z.enum(['reversed', 'confirmed']) }) } },
  },
  textQueue: {
    method: 'get', path: '/api/moderation-texts.php', auth: staffAuth('moderator'), summary: 'New and changed names and about-me texts, oldest first',
    description: `${moderators} Shown at once on the site; the queue is for review (decision 061). 50 a page, with the number open.`, query: pageQuery,
    responses: { 200: { description: 'The queue.', schema: z.strictObject({ items: z.array(queuedTextSchema), counts: z.strictObject({ open: z.int() }), ...paged }) } },
  },
  claimText: {
    method: 'post', path: '/api/moderation-text-claim.php', auth: staffAuth('moderator'), summary: 'Claim a name or text for ten minutes',
    description: `${moderators} 409 item_claimed while another moderator holds it; 409 text_already_decided.`,
    body: z.strictObject({ id: idParam }), responses: claim,
  },
  decideText: {
    method: 'post', path: '/api/moderation-text-decide.php', auth: staffAuth('moderator'), summary: 'Approve or remove a claimed name or text',
    description: `${moderators} remove gives a name a neutral one (#id) and empties an about-me text, and sends the member a statement of reasons on the ground given; an appeal upheld puts the text back while it is unchanged. 409 text_not_claimed without a live claim of one's own, or when a newer text replaced the one claimed.`,
    body: z.strictObject({ id: idParam, action: z.enum(['approve', 'remove']), ground: z.enum(GROUND_KEYS).optional(), facts }),
    responses: { 200: { description: 'The outcome.', schema: z.strictObject({ status: z.enum(['approved', 'removed']), decision_id: id.nullable() }) } },
  },
  claimPhoto: {
    method: 'post', path: '/api/moderation-photo-claim.php', auth: staffAuth('moderator'), summary: 'Claim a profile or chat photo for ten minutes',
    description: `${moderators} While held, another moderator's claim and decision (POST /api/moderation.php) answer 409 item_claimed. 404 for a photo on a site out of reach; 409 photo_already_reviewed.`,
    body: z.strictObject({ kind: z.enum(['profile', 'chat']), id: idParam }), responses: claim,
  },
});
