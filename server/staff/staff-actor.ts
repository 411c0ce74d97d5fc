import { inArray } from 'drizzle-orm';
import type { StaffActor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { sites, type StaffRoleName } from '../db/schema.ts';

export { can, requireRole, type StaffActor, type StaffOrSystem, type SystemActor } from '../actor.ts';

/** The actor of a staff member's row: the scope's companies become their sites, once, when the session is read. */
export async function staffActor(
  db: Db, staff: { id: number; roles: readonly StaffRoleName[]; siteIds: readonly number[] | null; companyIds: readonly number[] | null },
): Promise<StaffActor> {
  const { id: staffId, roles, companyIds } = staff;
  if (staff.siteIds === null && companyIds === null) return { kind: 'staff', staffId, roles, siteIds: null, companyIds: null };
  const ofCompanies = companyIds?.length
    ? (await db.select({ id: sites.id }).from(sites).where(inArray(sites.companyId, [...companyIds]))).map((s) => s.id)
    : [];
  const siteIds = [...new Set([...(staff.siteIds ?? []), ...ofCompanies])].sort((a, b) => a - b);
  return { kind: 'staff', staffId, roles, siteIds, companyIds };
}
