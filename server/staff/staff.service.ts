import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { isLanguage } from '#common/languages.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { Db } from '../db/client.ts';
import type { CookieSigner } from '../infra/cookie-signer.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import { STAFF_ROLES, staffMembers, staffRecoveryCodes, staffSessions } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import { requireRole, staffActor, type StaffActor, type StaffOrSystem } from './staff-actor.ts';
import {
  RECOVERY_CODE_COUNT, generateRecoveryCode, generateStaffPassword, hashSecret, normalizeRecoveryCode,
} from './staff-secrets.ts';
import { createStaffPasskeys } from './staff-passkeys.ts';
import { createStaffSignIn } from './staff-sign-in.ts';
import { createStaffTokens } from './staff-tokens.ts';
import { generateTotpSecret, otpauthUri } from './totp.ts';

/** The name authenticator apps show beside the code. */
const TOTP_ISSUER = 'Amora console';

const newStaffInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
  name: z.string().trim().min(1).max(100),
  roles: z.array(z.enum(STAFF_ROLES)).min(1).transform((r) => [...new Set(r)]),
  siteIds: z.array(z.int().positive()).nullable().default(null),
  companyIds: z.array(z.int().positive()).nullable().default(null),
  language: z.string().refine(isLanguage).default('en'),
});

export type NewStaffInput = z.input<typeof newStaffInput>;

/** What a new staff member needs to sign in, shown once: none of it is kept in the clear. */
export interface NewStaffCredentials {
  id: number;
  email: string;
  password: string;
  totpSecret: string;
  otpauthUri: string;
  recoveryCodes: string[];
}

/**
 * Staff accounts (decision 055): created by an admin of every site, or by the command line (the first admin), with a
 * generated password, a TOTP secret and ten recovery codes; disabled, never deleted (the audit log names them).
 */
function createStaffMembers(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  return {
    async create(actor: StaffOrSystem, input: NewStaffInput, from: { ip?: string | null } = {}): Promise<NewStaffCredentials> {
      requireRole(actor, 'admin', null);
      const parsed = newStaffInput.safeParse(input);
      if (!parsed.success) throw new AppError(400, 'invalid_input');
      const { email, name, roles, siteIds, companyIds, language } = parsed.data;
      const password = generateStaffPassword();
      const totpSecret = generateTotpSecret();
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
      const passwordHash = await hashPassword(password);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.insert(staffMembers)
          .values({ email, name, passwordHash, roles, siteIds, companyIds, language, totpSecret, createdAt: clock() })
          .onConflictDoNothing({ target: staffMembers.email })
          .returning({ id: staffMembers.id });
        if (!row) throw new AppError(409, 'email_taken');
        await tx.insert(staffRecoveryCodes).values(recoveryCodes.map((code) => ({ staffId: row.id, codeHash: hashSecret(normalizeRecoveryCode(code)) })));
        await audit.record(tx, {
          actor, role: 'admin', action: 'staff.create', objectType: 'staff_member', objectId: row.id,
          after: { email, name, roles, siteIds, companyIds, language }, ip: from.ip,
        });
        return row.id;
      });
      return { id, email, password, totpSecret, otpauthUri: otpauthUri(TOTP_ISSUER, email, totpSecret), recoveryCodes };
    },

    /**
     * The staff member a command-line tool acts as (`--staff <e-mail>`): whoever may run commands on the server names
     * themselves, and the use cases then check that staff member's roles and sites and write them in the audit log.
     * Null for an unknown or disabled address.
     */
    async actorByEmail(email: string): Promise<StaffActor | null> {
      const [row] = await db.select().from(staffMembers).where(and(eq(staffMembers.email, email.trim().toLowerCase()), isNull(staffMembers.disabledAt)));
      return row ? staffActor(db, row) : null;
    },

    /** Disables a staff member: their sessions end and their API tokens stop working. */
    async disable(actor: StaffOrSystem, staffId: number, from: { ip?: string | null } = {}): Promise<void> {
      requireRole(actor, 'admin', null);
      await db.transaction(async (tx) => {
        const [row] = await tx.update(staffMembers).set({ disabledAt: clock() })
          .where(and(eq(staffMembers.id, staffId), isNull(staffMembers.disabledAt)))
          .returning({ id: staffMembers.id });
        if (!row) throw notFound();
        await tx.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
        await audit.record(tx, {
          actor, role: 'admin', action: 'staff.disable', objectType: 'staff_member', objectId: staffId,
          before: { disabled: false }, after: { disabled: true }, ip: from.ip,
        });
      });
    },
  };
}

/** The staff area's use cases: accounts, signing in and sessions, API tokens, passkeys. */
export function createStaffService(deps: {
  db: Db; clock: Clock; audit: AuditLog; cookies: CookieSigner; limits: { staffSignInPerIp: RateLimiter; staffSignInPerAccount: RateLimiter };
}) {
  const passkeys = createStaffPasskeys(deps);
  return { ...createStaffMembers(deps), ...createStaffSignIn({ ...deps, passkeys }), ...createStaffTokens(deps), ...passkeys };
}
