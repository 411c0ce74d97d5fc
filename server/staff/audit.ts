import type { Tx } from '../db/client.ts';
import { auditLog, type StaffRoleName } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { StaffOrSystem } from './staff-actor.ts';

export interface AuditEntry {
  actor: StaffOrSystem;
  /** The role the use case required; an admin acting without it is written down as `admin`. */
  role: StaffRoleName;
  /** `<area>.<verb>`, such as `staff.create` or `member.ban`. */
  action: string;
  objectType: string;
  objectId?: string | number | null;
  /** The member the action concerns, if any. */
  memberId?: number | null;
  before?: unknown;
  after?: unknown;
  /** The client address the request came from; none for the command line. */
  ip?: string | null;
}

/**
 * The audit log: one row per staff action or opening of member data, written inside the caller's transaction so
 * that it exists exactly when the action does. There is deliberately no way here to change or remove a row (and
 * the database refuses both, migration 0025).
 */
export function createAuditLog(deps: { clock: Clock }) {
  return {
    async record(tx: Tx, entry: AuditEntry): Promise<void> {
      const { actor } = entry;
      const staff = actor.kind === 'staff';
      await tx.insert(auditLog).values({
        staffId: staff ? actor.staffId : null,
        role: !staff ? 'system' : actor.roles.includes(entry.role) ? entry.role : 'admin',
        action: entry.action,
        objectType: entry.objectType,
        objectId: entry.objectId == null ? null : String(entry.objectId),
        memberId: entry.memberId ?? null,
        before: entry.before ?? null,
        after: entry.after ?? null,
        ip: entry.ip ?? null,
        at: deps.clock(),
      });
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
