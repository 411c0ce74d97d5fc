import { z } from 'zod';
import {
  GROUND_KEYS, REPORT_KINDS, REPORT_REASONS, REPORT_STATUSES, RESTRICTIONS, STATEMENT_TOKEN, appealSchema, reportSchema,
} from '../reports.ts';
import { checkedByUseCase, contracts } from './contract.ts';
import { id, idParam, isoDateTime } from './shapes.ts';

const myReportSchema = z.strictObject({
  id, profile_id: id, profile_name: z.string().nullable(), kind: z.enum(REPORT_KINDS), content_id: z.number().int().positive().nullable(),
  reason: z.enum(REPORT_REASONS), text: z.string(), status: z.enum(REPORT_STATUSES), created_at: isoDateTime, decided_at: isoDateTime.nullable(),
});

const statementSchema = z.strictObject({
  id,
  restriction: z.enum(RESTRICTIONS),
  content: z.strictObject({ kind: z.enum(['photo', 'chat_photo', 'about', 'name', 'message', 'account']), id: z.number().int().positive().nullable() }),
  suspended_until: isoDateTime.nullable(),
  facts: z.string(),
  ground: z.enum(GROUND_KEYS),
  basis: z.enum(['terms', 'law']),
  automated: z.boolean(),
  source: z.enum(['report', 'notice', 'own_initiative']),
  status: z.enum(['in_force', 'reversed']),
  created_at: isoDateTime,
  appeal_until: isoDateTime,
  appeal: z.strictObject({
    status: z.enum(['open', 'decided']), outcome: z.enum(['reversed', 'confirmed']).nullable(), text: z.string(), created_at: isoDateTime,
    decided_at: isoDateTime.nullable(),
  }).nullable(),
  can_appeal: z.boolean(),
});

/** A statement's link token, checked by the use case (a wrong one is "not found", as a wrong id). */
const token = checkedByUseCase(z.string().regex(STATEMENT_TOKEN).optional());

/** Members reporting members (decision 057), their own reports, and the statements of reasons with their appeals. */
export const reportsContracts = contracts({
  report: {
    method: 'post', path: '/api/report.php', auth: 'member', summary: 'Report a member, one of their photos or a message they sent',
    description: 'Reporting the same thing again answers the report already made (existing: true). block: true also blocks the member.',
    body: reportSchema,
    responses: {
      201: { description: 'The report, and whether the member is now blocked.', schema: z.strictObject({ report: myReportSchema, existing: z.boolean(), blocked: z.boolean() }) },
    },
  },
  mine: {
    method: 'get', path: '/api/report.php', auth: 'member', summary: 'The member\'s own reports, newest first',
    responses: { 200: { description: 'Reports with their status.', schema: z.strictObject({ reports: z.array(myReportSchema) }) } },
  },
  statement: {
    method: 'get', path: '/api/statement.php', summary: 'A statement of reasons',
    description: 'For the member it concerns (signed in), or with the token of the mailed link; anyone else gets 404.',
    query: z.object({ id: idParam, token }),
    responses: { 200: { description: 'The statement and its appeal.', schema: z.strictObject({ statement: statementSchema }) } },
  },
  appeal: {
    method: 'post', path: '/api/appeal.php', summary: 'Appeal a decision, once, within six months',
    description: 'The member it concerns (signed in) or the holder of the mailed link\'s token.',
    body: z.object({ id: idParam, token, ...appealSchema.shape }),
    responses: { 201: { description: 'The statement with the appeal.', schema: z.strictObject({ statement: statementSchema }) } },
  },
});
