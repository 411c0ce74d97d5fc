import { z } from 'zod';
import { FLAG_KINDS } from '../moderation-flags.ts';
import { GROUND_KEYS, REPORT_KINDS, REPORT_REASONS, REPORT_STATUSES } from '../reports.ts';
import { contracts, IDEMPOTENCY_KEY, staffAuth } from './contract.ts';
import { id, idParam, isoDateTime } from './shapes.ts';

/**
 * The console's member support and the members queue's automatic flags, for staff (a console session or a staff API
 * token): support staff for members, moderators for flags, each within the sites they reach. Every search and every
 * opening of a member or of a flag's evidence is written to the audit log.
 */
const support = 'Support staff (or admins) for members of the sites they reach; written to the audit log.';
const moderators = 'Moderators (or admins) for members of the sites they reach.';

const flagKind = z.enum(FLAG_KINDS);
const memberBody = z.strictObject({ member_id: idParam });
const nullableTime = isoDateTime.nullable();

export const foundMemberSchema = z.strictObject({
  id, site_id: id, email: z.string(), name: z.string().nullable(), status: z.string(), signup_date: isoDateTime,
});

export const queuedFlagSchema = z.strictObject({
  id, site_id: id, member_id: id, kind: flagKind, hits: z.int().min(1), first_at: isoDateTime, last_at: isoDateTime,
});

const evidenceSchema = z.strictObject({
  message_id: z.int().optional(), recipient_id: z.int().optional(), matched: z.array(z.string()).optional(),
  excerpt: z.string().optional(), count: z.int().optional(), at: isoDateTime,
});

/** Reports a member made or that concern them: the other member, what, why and where it stands. */
const reportRows = z.array(z.strictObject({
  id, kind: z.enum(REPORT_KINDS), reason: z.enum(REPORT_REASONS), status: z.enum(REPORT_STATUSES), created_at: isoDateTime, other_id: id,
}));

export const memberOverviewSchema = z.strictObject({
  account: z.strictObject({
    id, site_id: id, email: z.string(), status: z.string(), language: z.string(), credits: z.int(), paid_user: z.boolean(),
    signup_date: isoDateTime, activated_at: nullableTime, last_active_at: nullableTime, deleted_at: nullableTime, locked_until: nullableTime,
    /** The end of a running suspension; null when none runs. */
    suspended_until: nullableTime,
    invisible: z.boolean(), email_opt_out: z.array(z.string()), push_state: z.string(),
  }),
  profile: z.strictObject({
    name: z.string(), gender: z.string(), birth_date: z.string(), country: z.string(), region: z.string().nullable(), about: z.string(), status: z.string(), fictional: z.boolean(),
  }).nullable(),
  photos: z.array(z.strictObject({ id, status: z.string(), reviewed: z.boolean(), is_private: z.boolean(), created_at: isoDateTime })),
  sessions: z.array(z.strictObject({ created_at: isoDateTime, last_used_at: isoDateTime, expires_at: isoDateTime, user_agent: z.string() })),
  orders: z.array(z.strictObject({
    id: z.string(), credits: z.int(), amount_cents: z.int(), currency: z.string(), paymentmethod: z.string(), status: z.string(),
    created_at: isoDateTime, refunded_at: nullableTime, refunded_cents: z.int(), invoice_number: z.string().nullable(),
  })),
  ledger: z.array(z.strictObject({ id, delta: z.int(), balance_after: z.int(), reason: z.string(), created_at: isoDateTime })),
  spend_cap: z.strictObject({
    period: z.string().nullable(), credits: z.int().nullable(), pending_period: z.string().nullable(), pending_credits: z.int().nullable(), pending_from: nullableTime,
  }).nullable(),
  likes: z.strictObject({ given: z.int(), received: z.int() }),
  conversations: z.strictObject({
    count: z.int(), messages_sent: z.int(),
    /** `reported`: a report names a message of it, so support may read it (support-conversation.php). */
    latest: z.array(z.strictObject({ id, other_id: id, last_message_at: nullableTime, sent: z.int(), received: z.int(), reported: z.boolean() })),
  }),
  ban: z.strictObject({ reason: z.string(), note: z.string(), created_at: isoDateTime }).nullable(),
  flags: z.array(z.strictObject({ id, kind: flagKind, hits: z.int(), first_at: isoDateTime })),
  reports: z.strictObject({ by: reportRows, about: reportRows }),
});

export const conversationTextSchema = z.strictObject({
  id, member_ids: z.tuple([id, id]), total: z.int(),
  reports: z.array(z.strictObject({ id, message_id: z.int(), reporter_id: id, reason: z.enum(REPORT_REASONS), status: z.enum(REPORT_STATUSES), created_at: isoDateTime })),
  messages: z.array(z.strictObject({
    id: z.int(), sender_id: id, kind: z.string(), body: z.string(), filtered: z.boolean(), removed_at: nullableTime, created_at: isoDateTime, reported: z.boolean(),
  })),
});

export const adjustCreditsBody = z.strictObject({
  member_id: idParam,
  credits: z.int().min(-10_000).max(10_000).refine((n) => n !== 0),
  reason: z.string().trim().min(3).max(500),
});

const done = { 200: { description: 'Done.', schema: z.strictObject({ ok: z.literal(true) }) } };

/** A suspension (decision 063): 1 to 365 days, a ground from the catalogue and the facts the statement of reasons gives. */
export const suspendBody = z.strictObject({
  member_id: idParam,
  days: z.int().min(1).max(365),
  ground: z.enum(GROUND_KEYS),
  facts: z.string().trim().min(3).max(500),
});

export const supportContracts = contracts({
  findMembers: {
    method: 'get', path: '/api/support-members.php', auth: staffAuth('support'), summary: 'Find members',
    description: `${support} By member id, e-mail address (whole or its beginning), the beginning of a name, an order id, an invoice number or a payment provider's reference; 50 a page (page: 1–200), newest first or oldest first (order); has_more says whether another page follows.`,
    query: z.object({ q: z.string().min(1).max(200), page: z.coerce.number().int().min(1).max(200).optional(), order: z.enum(['newest', 'oldest']).optional() }),
    responses: { 200: { description: 'A page of the members found.', schema: z.strictObject({ members: z.array(foundMemberSchema), has_more: z.boolean() }) } },
  },
  member: {
    method: 'get', path: '/api/support-member.php', auth: staffAuth('support'), summary: 'A member\'s overview',
    description: `${support} Conversations are counted and their partners named; their text is not shown.`,
    query: z.object({ id: idParam }),
    responses: { 200: { description: 'The member.', schema: memberOverviewSchema } },
  },
  adjustCredits: {
    method: 'post', path: '/api/support-credits.php', auth: staffAuth('support'), summary: 'Add or take back credits',
    description: `${support} A ledger row with the reason (the member's credit history shows it as a correction by customer service); taking back stops at the balance. A retry with the same Idempotency-Key books nothing twice.`,
    headers: IDEMPOTENCY_KEY,
    body: adjustCreditsBody,
    responses: { 200: { description: 'What was booked and the new balance.', schema: z.strictObject({ credits: z.int(), balance: z.int() }) } },
  },
  conversation: {
    method: 'get', path: '/api/support-conversation.php', auth: staffAuth('support'), summary: 'Read a reported conversation of a member',
    description: `${support} Only a conversation in which a member reported a message (403 conversation_not_reported otherwise); the newest 200 messages, oldest first. Each reading is written to the audit log.`,
    query: z.object({ member_id: idParam, id: idParam }),
    responses: { 200: { description: 'The conversation, its reports and messages.', schema: conversationTextSchema } },
  },
  endSessions: {
    method: 'post', path: '/api/support-sessions-end.php', auth: staffAuth('support'), summary: 'Sign a member out everywhere',
    description: support, body: memberBody,
    responses: { 200: { description: 'How many sessions ended.', schema: z.strictObject({ ended: z.int() }) } },
  },
  resendActivation: {
    method: 'post', path: '/api/support-activation.php', auth: staffAuth('support'), summary: 'Send the activation mail again',
    description: `${support} 409 already_activated for a confirmed account.`, body: memberBody, responses: done,
  },
  sendPasswordReset: {
    method: 'post', path: '/api/support-password-reset.php', auth: staffAuth('support'), summary: 'Mail the member a password-reset link',
    description: `${support} The link goes to the member's own address; staff never set or see a password.`, body: memberBody, responses: done,
  },
  suspend: {
    method: 'post', path: '/api/support-suspend.php', auth: staffAuth('moderator'), summary: 'Suspend a member for a number of days',
    description: `${moderators} The member is signed out, cannot log in and is hidden from other members until the time given back, when it ends by itself; they get a statement of reasons they can appeal. 409 member_banned for a banned member.`,
    body: suspendBody,
    responses: { 200: { description: 'When the suspension ends.', schema: z.strictObject({ until: isoDateTime }) } },
  },
  endSuspension: {
    method: 'post', path: '/api/support-suspension-end.php', auth: staffAuth('moderator'), summary: 'End a suspension early',
    description: `${moderators} 409 member_not_suspended when no suspension runs.`,
    body: z.strictObject({ member_id: idParam, reason: z.string().trim().min(3).max(500) }), responses: done,
  },
  flags: {
    method: 'get', path: '/api/member-flags.php', auth: staffAuth('moderator'), summary: 'Open automatic flags, oldest first',
    description: `${moderators} 50 at a time (after: the last id of the page before), with the number open per kind. Without the evidence's text.`,
    query: z.object({ after: idParam.optional() }),
    responses: { 200: { description: 'A page of flags and the counts.', schema: z.strictObject({ flags: z.array(queuedFlagSchema), counts: z.record(flagKind, z.int()) }) } },
  },
  flag: {
    method: 'get', path: '/api/member-flag.php', auth: staffAuth('moderator'), summary: 'A flag with its evidence',
    description: `${moderators} The messages' excerpts that raised it; opening it is written to the audit log.`,
    query: z.object({ id: idParam }),
    responses: { 200: { description: 'The flag.', schema: z.strictObject({ id, member_id: id, kind: flagKind, hits: z.int(), evidence: z.array(evidenceSchema) }) } },
  },
  resolveFlag: {
    method: 'post', path: '/api/member-flag-resolve.php', auth: staffAuth('moderator'), summary: 'Close a flag',
    description: `${moderators} Once the member has been looked at; a later hit opens a new flag. 409 flag_resolved when it is closed already.`,
    body: z.strictObject({ id: idParam }), responses: done,
  },
});
