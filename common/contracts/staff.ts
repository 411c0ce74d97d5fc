import { z } from 'zod';
import { contracts, staffAuth } from './contract.ts';
import { id, idParam, isoDateTime } from './shapes.ts';

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

const admins = 'Admins of every site, through a console session or a staff API token with the admin scope.';

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
});
