import { z } from 'zod';
import { contracts, staffAuth } from './contract.ts';
import { GROUND_KEYS, REPORT_REASONS, RESTRICTIONS } from '../reports.ts';
import { NOTICE_REASONS } from '../notices.ts';
import { id, idParam, isoDateTime } from './shapes.ts';
import { dashboardCsvQuerySchema, dashboardQuerySchema, dashboardSchema } from './dashboard.ts';

/** A day as the console's date fields send it (YYYY-MM-DD); empty means no bound. */
const day = z.preprocess((v) => (v === '' ? undefined : v), z.iso.date().optional());
const optionalId = z.preprocess((v) => (v === '' ? undefined : v), idParam.optional());
const optionalText = (max: number) => z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), z.string().max(max).regex(/^\P{Cc}*$/u).optional());

/**
 * The audit log's filters, sort and page, as the console's form and the API's query string send them: who (staff id),
 * what (action, or its area: `member.` matches every member action), which member, which object (`type` or
 * `type:id`), and a date range (days, inclusive, UTC).
 */
export const auditLogQuerySchema = z.object({
  staff: optionalId,
  action: optionalText(100),
  member: optionalId,
  object: optionalText(140),
  from: day,
  to: day,
  sort: z.enum(['newest', 'oldest']).catch('newest'),
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : v), z.coerce.number().int().min(1).max(100_000)).catch(1),
});

export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;

export const AUDIT_LOG_PAGE_SIZE = 50;

export const auditRowSchema = z.strictObject({
  id,
  at: isoDateTime,
  staff_id: id.nullable(),
  staff_name: z.string().nullable(),
  role: z.string(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string().nullable(),
  member_id: z.int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});

export type AuditRow = z.output<typeof auditRowSchema>;

/**
 * The DSA transparency report's period (days, inclusive, UTC; by default this year until today) and site (by default
 * every site the staff member may see). The period is at most five years long.
 */
export const transparencyQuerySchema = z.object({
  from: day,
  to: day,
  site: optionalId,
});

export type TransparencyQuery = z.output<typeof transparencyQuerySchema>;

/** A count per key of a catalogue (every key listed, zeros too, in the catalogue's order). */
const tally = <K extends readonly [string, ...string[]]>(keys: K) => z.array(z.strictObject({ key: z.enum(keys), count: z.int().min(0) }));
/** Hours from receipt to decision, the median of the items decided in the period; null when none was decided. */
const medianHours = z.number().min(0).nullable();

export const transparencyReportSchema = z.strictObject({
  from: z.iso.date(),
  to: z.iso.date(),
  /** The site the figures are for; null for every site the staff member may see. */
  site_id: id.nullable(),
  notices: z.strictObject({
    received: z.int().min(0),
    by_reason: tally(NOTICE_REASONS),
    decided: z.int().min(0),
    removed: z.int().min(0),
    no_action: z.int().min(0),
    median_hours_to_decision: medianHours,
  }),
  member_reports: z.strictObject({
    received: z.int().min(0),
    by_reason: tally(REPORT_REASONS),
    actioned: z.int().min(0),
    dismissed: z.int().min(0),
    median_hours_to_decision: medianHours,
  }),
  decisions: z.strictObject({
    total: z.int().min(0),
    automated: z.int().min(0),
    reversed: z.int().min(0),
    by_ground: z.array(z.strictObject({ key: z.enum(GROUND_KEYS), count: z.int().min(0), automated: z.int().min(0) })),
    by_restriction: tally(RESTRICTIONS),
    by_source: tally(['notice', 'report', 'own_initiative']),
  }),
  appeals: z.strictObject({
    received: z.int().min(0),
    decided: z.int().min(0),
    reversed: z.int().min(0),
    confirmed: z.int().min(0),
    median_hours_to_decision: medianHours,
  }),
});

export type TransparencyReport = z.output<typeof transparencyReportSchema>;

const admins = 'Admins of every site, through a console session or a staff API token with the admin scope.';
const siteAdmins = 'Admins, for the sites they may see, through a console session or a staff API token with the admin scope.';

export const staffContracts = contracts({
  auditLog: {
    method: 'get', path: '/api/audit-log.php', auth: staffAuth('admin'), summary: 'The audit log, filtered, a page at a time',
    description: admins,
    query: auditLogQuerySchema,
    responses: {
      200: {
        description: 'The page\'s rows, newest or oldest first, and how many rows match.',
        schema: z.strictObject({ rows: z.array(auditRowSchema), total: z.int(), page: z.int(), page_size: z.int() }),
      },
    },
  },
  auditLogCsv: {
    method: 'get', path: '/api/audit-log.csv', auth: staffAuth('admin'), summary: 'The audit log as CSV',
    description: `${admins} Every matching row (up to 100,000), with the same filters; cells that a spreadsheet would read as a formula start with an apostrophe.`,
    query: auditLogQuerySchema,
    responses: { 200: { description: 'The CSV file (UTF-8, with a header row).', contentType: 'text/csv' } },
  },
  transparencyReport: {
    method: 'get', path: '/api/transparency-report.php', auth: staffAuth('admin'), summary: 'The DSA transparency report\'s figures for a period',
    description: `${siteAdmins} Notices and member reports received, decisions by ground, restriction and source, the share taken automatically, appeals and their outcomes, and the median hours to a decision (EU DSA Art. 15 and 24).`,
    query: transparencyQuerySchema,
    responses: { 200: { description: 'The figures of the period.', schema: transparencyReportSchema } },
  },
  transparencyReportCsv: {
    method: 'get', path: '/api/transparency-report.csv', auth: staffAuth('admin'), summary: 'The DSA transparency report as CSV',
    description: `${siteAdmins} The same figures, one row per figure: section, item, count.`,
    query: transparencyQuerySchema,
    responses: { 200: { description: 'The CSV file (UTF-8, with a header row).', contentType: 'text/csv' } },
  },
  dashboard: {
    method: 'get', path: '/api/reports-dashboard.php', auth: staffAuth('finance'), summary: 'The reports dashboard\'s figures for a period',
    description: 'Finance and admins, for the sites they may see. Sign-ups, activations, first purchases, messages, gifts, active members and page bounces per day, week or month; revenue, refunds and chargebacks per currency in cents.',
    query: dashboardQuerySchema,
    responses: { 200: { description: 'The figures of the period.', schema: dashboardSchema } },
  },
  dashboardCsv: {
    method: 'get', path: '/api/reports-dashboard.csv', auth: staffAuth('finance'), summary: 'One table of the reports dashboard as CSV',
    description: 'Finance and admins, for the sites they may see. The table named by `table`, with a header row.',
    query: dashboardCsvQuerySchema,
    responses: { 200: { description: 'The CSV file (UTF-8, with a header row).', contentType: 'text/csv' } },
  },
});
