import { and, asc, count, desc, eq, gte, like, lt, type SQL } from 'drizzle-orm';
import { AUDIT_LOG_PAGE_SIZE, type AuditLogQuery, type AuditRow } from '#common/contracts/staff.ts';
import { csvFile } from '#common/csv.ts';
import type { Db } from '../db/client.ts';
import { auditLog, staffMembers } from '../db/schema.ts';

/** The most rows one CSV export holds; narrower filters give the rest. */
export const AUDIT_CSV_MAX_ROWS = 100_000;

const DAY_MS = 86_400_000;

/** `_` and `%` in what a person typed are letters, not LIKE's wildcards. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function where(query: AuditLogQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.staff) conditions.push(eq(auditLog.staffId, query.staff));
  if (query.member) conditions.push(eq(auditLog.memberId, query.member));
  if (query.action) {
    // `member.` (an area) matches every action of it; anything else is one action.
    conditions.push(query.action.endsWith('.') ? like(auditLog.action, `${literal(query.action)}%`) : eq(auditLog.action, query.action));
  }
  if (query.object) {
    const at = query.object.indexOf(':');
    conditions.push(at < 0
      ? eq(auditLog.objectType, query.object)
      : and(eq(auditLog.objectType, query.object.slice(0, at)), eq(auditLog.objectId, query.object.slice(at + 1))));
  }
  // Days are UTC and inclusive: `to` takes everything before the next day.
  if (query.from) conditions.push(gte(auditLog.at, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) conditions.push(lt(auditLog.at, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS)));
  return conditions.length ? and(...conditions) : undefined;
}

function select(db: Db, query: AuditLogQuery) {
  return db.select({
    id: auditLog.id, at: auditLog.at, staffId: auditLog.staffId, staffName: staffMembers.name, role: auditLog.role, action: auditLog.action,
    objectType: auditLog.objectType, objectId: auditLog.objectId, memberId: auditLog.memberId, before: auditLog.before, after: auditLog.after, ip: auditLog.ip,
  }).from(auditLog).leftJoin(staffMembers, eq(staffMembers.id, auditLog.staffId)).where(where(query))
    .orderBy(...(query.sort === 'oldest' ? [asc(auditLog.at), asc(auditLog.id)] : [desc(auditLog.at), desc(auditLog.id)]));
}

type Selected = Awaited<ReturnType<typeof select>>[number];

const toRow = (r: Selected): AuditRow => ({
  id: r.id, at: r.at.toISOString(), staff_id: r.staffId, staff_name: r.staffName, role: r.role, action: r.action,
  object_type: r.objectType, object_id: r.objectId, member_id: r.memberId, before: r.before, after: r.after, ip: r.ip,
});

/** One page of the log with the filters, and how many rows match them. */
export async function auditLogPage(db: Db, query: AuditLogQuery): Promise<{ rows: AuditRow[]; total: number; page: number; page_size: number }> {
  const [{ total }] = await db.select({ total: count() }).from(auditLog).where(where(query));
  const rows = await select(db, query).limit(AUDIT_LOG_PAGE_SIZE).offset((query.page - 1) * AUDIT_LOG_PAGE_SIZE);
  return { rows: rows.map(toRow), total, page: query.page, page_size: AUDIT_LOG_PAGE_SIZE };
}

const CSV_COLUMNS: (keyof AuditRow)[] = ['id', 'at', 'staff_id', 'staff_name', 'role', 'action', 'object_type', 'object_id', 'member_id', 'ip', 'before', 'after'];

/** Every matching row (up to AUDIT_CSV_MAX_ROWS) as CSV with a header row, lines ending in CRLF (RFC 4180). */
export async function auditLogCsv(db: Db, query: AuditLogQuery): Promise<string> {
  const rows = (await select(db, query).limit(AUDIT_CSV_MAX_ROWS)).map(toRow);
  return csvFile([CSV_COLUMNS, ...rows.map((row) => CSV_COLUMNS.map((c) => row[c]))]);
}
