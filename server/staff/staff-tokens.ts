import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { STAFF_ROLES, staffApiTokens, staffMembers, type StaffRoleName } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import { can, staffActor, type StaffActor } from './staff-actor.ts';
import { generateToken, hashSecret } from './staff-secrets.ts';

/** Secret scanners find tokens by this prefix. */
const TOKEN_PREFIX = 'amora_st_';

const newTokenInput = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(STAFF_ROLES)).min(1).transform((s) => [...new Set(s)]),
});

/**
 * API tokens for automation, in place of the shared operator token (decision 055). A token belongs to one staff
 * member and acts with the roles it was given (`scopes`, within its owner's own); it is shown once, kept as a
 * SHA-256, and stops working when revoked or when its owner is disabled.
 */
export function createStaffTokens(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  return {
    /** A new token for the acting staff member; its value is in this answer only. */
    async createToken(actor: StaffActor, input: { name: string; scopes: StaffRoleName[] }, from: { ip?: string | null } = {}): Promise<{ id: number; token: string }> {
      const parsed = newTokenInput.safeParse(input);
      if (!parsed.success) throw new AppError(400, 'invalid_input');
      const { name, scopes } = parsed.data;
      // Every scope within the actor's own roles (an admin has all of them).
      if (!scopes.every((role) => can({ ...actor, siteIds: null }, role, null))) throw new AppError(403, 'forbidden');
      const token = generateToken(TOKEN_PREFIX);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.insert(staffApiTokens)
          .values({ staffId: actor.staffId, tokenHash: hashSecret(token), name, scopes, createdAt: clock() })
          .returning({ id: staffApiTokens.id });
        await audit.record(tx, {
          actor, role: scopes[0], action: 'staff.api_token.create', objectType: 'staff_api_token', objectId: row.id,
          after: { name, scopes }, ip: from.ip,
        });
        return row.id;
      });
      return { id, token };
    },

    /** The staff member a token acts for, with the token's scopes as roles, or null (unknown, revoked, disabled owner). */
    async verifyToken(token: string | undefined): Promise<StaffActor | null> {
      if (!token?.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
      const [row] = await db.select({
        tokenId: staffApiTokens.id, scopes: staffApiTokens.scopes, id: staffMembers.id, roles: staffMembers.roles,
        siteIds: staffMembers.siteIds, companyIds: staffMembers.companyIds,
      }).from(staffApiTokens).innerJoin(staffMembers, eq(staffMembers.id, staffApiTokens.staffId))
        .where(and(eq(staffApiTokens.tokenHash, hashSecret(token)), isNull(staffApiTokens.revokedAt), isNull(staffMembers.disabledAt)));
      if (!row) return null;
      // Roles taken from the owner since the token was made are no longer the token's either.
      const roles = row.roles.includes('admin') ? row.scopes : row.scopes.filter((s) => row.roles.includes(s));
      if (roles.length === 0) return null;
      await db.update(staffApiTokens).set({ lastUsedAt: clock() }).where(eq(staffApiTokens.id, row.tokenId));
      return staffActor(db, { ...row, roles });
    },

    /** Revokes a token: its owner's, or any by an admin of every site. */
    async revokeToken(actor: StaffActor, tokenId: number, from: { ip?: string | null } = {}): Promise<void> {
      await db.transaction(async (tx) => {
        const [token] = await tx.select({ staffId: staffApiTokens.staffId, name: staffApiTokens.name }).from(staffApiTokens)
          .where(eq(staffApiTokens.id, tokenId));
        const own = token?.staffId === actor.staffId;
        // Someone else's token is as unknown as a missing one.
        if (!token || (!own && !can(actor, 'admin', null))) throw notFound();
        const [revoked] = await tx.update(staffApiTokens).set({ revokedAt: clock() })
          .where(and(eq(staffApiTokens.id, tokenId), isNull(staffApiTokens.revokedAt))).returning({ id: staffApiTokens.id });
        if (!revoked) throw notFound();
        await audit.record(tx, {
          actor, role: own ? actor.roles[0] : 'admin', action: 'staff.api_token.revoke', objectType: 'staff_api_token', objectId: tokenId,
          before: { name: token.name, revoked: false }, after: { revoked: true }, ip: from.ip,
        });
      });
    },
  };
}
