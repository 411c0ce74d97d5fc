import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { PASSWORD_MAX_UNITS } from '#common/passwords.ts';
import { dummyPasswordHash, verifyPassword } from '../accounts/passwords.ts';
import type { Db, Tx } from '../db/client.ts';
import { staffMembers, staffRecoveryCodes, staffSessions } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { CookieSigner } from '../infra/cookie-signer.ts';
import { AppError } from '../infra/errors.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { AuditLog } from './audit.ts';
import { staffActor, type StaffActor } from './staff-actor.ts';
import type { createStaffPasskeys, RelyingParty } from './staff-passkeys.ts';
import { generateToken, hashSecret, normalizeRecoveryCode } from './staff-secrets.ts';
import { matchTotp, TOTP_DIGITS } from './totp.ts';

/** A console session ends 12 hours after sign-in, whatever happens (decision 055)… */
export const STAFF_SESSION_LIFETIME_MS = 12 * 60 * 60_000;
/** …and after 30 minutes without a request. */
export const STAFF_SESSION_IDLE_MS = 30 * 60_000;
/** The last use is written at most once a minute, so a busy console does not write on every request. */
const TOUCH_EVERY_MS = 60_000;
/** Between the password and the second factor. */
const CHALLENGE_MS = 5 * 60_000;
const CHALLENGE_PURPOSE = 'staff-sign-in';

type Limits = { staffSignInPerIp: RateLimiter; staffSignInPerAccount: RateLimiter };

const failed = () => new AppError(401, 'login_failed');

/**
 * Staff sign in in two steps: the password gives a signed, five-minute challenge; the challenge and a TOTP code
 * (or one of the recovery codes) give a session. Unknown addresses, wrong passwords and disabled accounts get the same
 * answer after the same password hashing. Failures of either step count per client address and per account.
 */
export function createStaffSignIn(deps: {
  db: Db; clock: Clock; audit: AuditLog; cookies: CookieSigner; limits: Limits; passkeys: ReturnType<typeof createStaffPasskeys>;
}) {
  const { db, clock, audit, cookies, limits, passkeys } = deps;
  const accountKey = (email: string) => hashSecret(`staff-sign-in:${email}`);

  async function refuseWhenThrottled(ip: string, key: string): Promise<void> {
    const wait = Math.max(await limits.staffSignInPerIp.blocked(ip), await limits.staffSignInPerAccount.blocked(key));
    if (wait > 0) throw new AppError(429, 'login_throttled', { count: Math.ceil(wait / 60), retry_after: wait });
  }

  async function fail(ip: string, key: string): Promise<never> {
    await limits.staffSignInPerIp.hit(ip);
    await limits.staffSignInPerAccount.hit(key);
    throw failed();
  }

  /**
   * Spends the second factor inside `tx`: a TOTP code later than the last one taken (the conditional update holds
   * against two requests with the same code), or an unused recovery code. Null when neither.
   */
  async function spendSecondFactor(
    tx: Tx, staff: { id: number; totpSecret: string; totpLastStep: number | null; totpConfirmedAt: Date | null }, code: string, now: Date,
  ): Promise<'totp' | 'recovery_code' | null> {
    const digits = code.replace(/\s/g, '');
    if (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(digits)) {
      const step = matchTotp(staff.totpSecret, digits, now, staff.totpLastStep);
      if (step === null) return null;
      const [row] = await tx.update(staffMembers).set({ totpLastStep: step, totpConfirmedAt: staff.totpConfirmedAt ?? now })
        .where(and(eq(staffMembers.id, staff.id), or(isNull(staffMembers.totpLastStep), lt(staffMembers.totpLastStep, step))))
        .returning({ id: staffMembers.id });
      return row ? 'totp' : null;
    }
    const normalized = normalizeRecoveryCode(code);
    if (normalized.length !== 16) return null;
    const [row] = await tx.update(staffRecoveryCodes).set({ usedAt: now })
      .where(and(eq(staffRecoveryCodes.staffId, staff.id), eq(staffRecoveryCodes.codeHash, hashSecret(normalized)), isNull(staffRecoveryCodes.usedAt)))
      .returning({ id: staffRecoveryCodes.id });
    return row ? 'recovery_code' : null;
  }

  /**
   * Step two, whichever factor: checks the challenge and the throttle, spends the factor inside the transaction that
   * opens the session and writes the audit row. Returns the session's token (the cookie's value, never stored).
   */
  async function secondStep(
    challenge: string, from: { ip: string }, tooLong: boolean,
    spend: (tx: Tx, staff: typeof staffMembers.$inferSelect, passkeyChallenge: string, now: Date) => Promise<string | null>,
  ): Promise<{ token: string; actor: StaffActor }> {
    const value = await cookies.verify(CHALLENGE_PURPOSE, challenge);
    const [idText, expiresText, passkeyChallenge = ''] = value?.split(':') ?? [];
    const now = clock();
    if (!value || !(Number(expiresText) > now.getTime())) throw failed();
    const [staff] = await db.select().from(staffMembers).where(eq(staffMembers.id, Number(idText)));
    if (!staff) throw failed();
    const key = accountKey(staff.email);
    await refuseWhenThrottled(from.ip, key);
    if (staff.disabledAt || tooLong) return fail(from.ip, key);
    const actor = await staffActor(db, staff);
    const token = generateToken();
    const done = await db.transaction(async (tx) => {
      const method = await spend(tx, staff, passkeyChallenge, now);
      if (!method) return false;
      await tx.insert(staffSessions).values({ id: hashSecret(token), staffId: staff.id, createdAt: now, lastSeenAt: now });
      await audit.record(tx, {
        actor, role: staff.roles[0], action: 'staff.sign_in', objectType: 'staff_member', objectId: staff.id, after: { method }, ip: from.ip,
      });
      return true;
    });
    if (!done) return fail(from.ip, key);
    await limits.staffSignInPerIp.reset(from.ip);
    return { token, actor };
  }

  return {
    /**
     * Step one: the password. Returns the challenge the second step needs, and when the staff member has passkeys on
     * this domain (`rp`), the options for signing in with one; 401 login_failed or 429 login_throttled.
     */
    async startSignIn(
      emailInput: string, password: string, from: { ip: string; rp?: RelyingParty },
    ): Promise<{ challenge: string; passkey: PublicKeyCredentialRequestOptionsJSON | null }> {
      const email = emailInput.trim().toLowerCase();
      const key = accountKey(email);
      await refuseWhenThrottled(from.ip, key);
      const [staff] = email.length <= 254
        ? await db.select({ id: staffMembers.id, passwordHash: staffMembers.passwordHash, disabledAt: staffMembers.disabledAt })
          .from(staffMembers).where(eq(staffMembers.email, email))
        : [];
      // An overlong password is hashed as '' (never a staff password), so it costs what any other try costs.
      const tooLong = password.length > PASSWORD_MAX_UNITS;
      const verified = await verifyPassword(staff?.passwordHash ?? await dummyPasswordHash(), tooLong ? '' : password);
      if (!staff || !verified || tooLong || staff.disabledAt) return fail(from.ip, key);
      const passkey = from.rp ? await passkeys.signInOptions(staff.id, from.rp) : null;
      const challenge = await cookies.sign(CHALLENGE_PURPOSE, `${staff.id}:${clock().getTime() + CHALLENGE_MS}:${passkey?.challenge ?? ''}`);
      return { challenge, passkey };
    },

    /** Step two with a TOTP code or a recovery code. */
    async finishSignIn(challenge: string, code: string, from: { ip: string }): Promise<{ token: string; actor: StaffActor }> {
      return secondStep(challenge, from, code.length > 64, (tx, staff, _passkeyChallenge, now) => spendSecondFactor(tx, staff, code, now));
    },

    /** Step two with a passkey of this domain, answering the options the password step gave. */
    async finishSignInWithPasskey(challenge: string, credential: unknown, from: { ip: string; rp: RelyingParty }): Promise<{ token: string; actor: StaffActor }> {
      return secondStep(challenge, from, false, async (tx, staff, passkeyChallenge) =>
        (await passkeys.spendPasskey(tx, staff.id, credential, passkeyChallenge, from.rp) ? 'passkey' : null));
    },

    /**
     * The staff member of a session, or null: a session ends STAFF_SESSION_LIFETIME_MS after sign-in, after
     * STAFF_SESSION_IDLE_MS without use, or when its staff member is disabled; an ended session's row goes at once.
     */
    async session(token: string | undefined): Promise<StaffActor | null> {
      if (!token || token.length > 100) return null;
      const id = hashSecret(token);
      const [row] = await db.select({
        createdAt: staffSessions.createdAt, lastSeenAt: staffSessions.lastSeenAt, id: staffMembers.id, roles: staffMembers.roles,
        siteIds: staffMembers.siteIds, companyIds: staffMembers.companyIds, disabledAt: staffMembers.disabledAt,
      }).from(staffSessions).innerJoin(staffMembers, eq(staffMembers.id, staffSessions.staffId)).where(eq(staffSessions.id, id));
      if (!row) return null;
      const now = clock().getTime();
      const lastSeen = row.lastSeenAt.getTime();
      if (row.disabledAt || now - row.createdAt.getTime() >= STAFF_SESSION_LIFETIME_MS || now - lastSeen >= STAFF_SESSION_IDLE_MS) {
        await db.delete(staffSessions).where(eq(staffSessions.id, id));
        return null;
      }
      if (now - lastSeen >= TOUCH_EVERY_MS) await db.update(staffSessions).set({ lastSeenAt: new Date(now) }).where(eq(staffSessions.id, id));
      return staffActor(db, row);
    },

    /** Signing out: the session's row goes, and the audit log says so. */
    async endSession(token: string | undefined, from: { ip?: string | null } = {}): Promise<void> {
      if (!token || token.length > 100) return;
      await db.transaction(async (tx) => {
        const [ended] = await tx.delete(staffSessions).where(eq(staffSessions.id, hashSecret(token))).returning({ staffId: staffSessions.staffId });
        if (!ended) return;
        const [staff] = await tx.select().from(staffMembers).where(eq(staffMembers.id, ended.staffId));
        await audit.record(tx, {
          actor: { kind: 'staff', staffId: staff.id, roles: staff.roles, siteIds: staff.siteIds, companyIds: staff.companyIds },
          role: staff.roles[0], action: 'staff.sign_out', objectType: 'staff_member', objectId: staff.id, ip: from.ip,
        });
      });
    },
  };
}
