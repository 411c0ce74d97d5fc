import type { StaffRoleName } from '../../common/staff.ts';
import { STAFF_COOKIE } from '../../common/staff.ts';
import type { StaffActor } from '../../server/actor.ts';
import type { SystemActor } from '../../server/actor.ts';
import { staffApiTokens, staffSessions } from '../../server/db/schema.ts';
import { staffActor } from '../../server/staff/staff-actor.ts';
import { generateToken, hashSecret } from '../../server/staff/staff-secrets.ts';
import type { Services } from '../../server/use-cases.ts';

/** What a job or the set-up of a test acts as: it may do everything. */
export const SYSTEM: SystemActor = { kind: 'system', job: 'test' };

let counter = 0;

export interface TestStaff {
  actor: StaffActor;
  email: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
  /** A staff API token with every role of the staff member as scopes. */
  token: string;
  /** `Authorization: Bearer <token>`. */
  bearer: { authorization: string };
  /** A `Cookie` header with a fresh console session (made without signing in, so no TOTP step is spent). */
  cookie(): Promise<{ cookie: string }>;
}

/** A staff member with `roles` (on `siteIds`, null for every site), an API token and console sessions on demand. */
export async function createStaff(
  t: { services: Services; clock?: () => Date },
  options: {
    roles: StaffRoleName[]; siteIds?: number[] | null; language?: string; name?: string;
    /** A token value of the test's own choosing (`amora_st_…`), for requests built before the staff member exists. */
    knownToken?: string;
  },
): Promise<TestStaff> {
  const { services } = t;
  const email = `staff${++counter}-${Date.now()}@example.com`;
  const created = await services.staff.create(SYSTEM, {
    email, name: options.name ?? `Staff ${counter}`, roles: options.roles, siteIds: options.siteIds ?? null, language: options.language ?? 'en',
  });
  const actor = await staffActor(services.db, { id: created.id, roles: options.roles, siteIds: options.siteIds ?? null, companyIds: null });
  const token = options.knownToken ?? (await services.staff.createToken(actor, { name: 'test', scopes: options.roles })).token;
  if (options.knownToken) {
    await services.db.insert(staffApiTokens).values({ staffId: created.id, tokenHash: hashSecret(options.knownToken), name: 'test', scopes: options.roles, createdAt: new Date() });
  }
  return {
    actor, email, password: created.password, totpSecret: created.totpSecret, recoveryCodes: created.recoveryCodes, token,
    bearer: { authorization: `Bearer ${token}` },
    async cookie() {
      const session = generateToken();
      const now = t.clock?.() ?? new Date();
      await services.db.insert(staffSessions).values({ id: hashSecret(session), staffId: created.id, createdAt: now, lastSeenAt: now });
      return { cookie: `${STAFF_COOKIE}=${session}` };
    },
  };
}

/** What a console use case answered: 'allowed', or its refusal's status, code and per-field messages. */
export const refusal = (work: Promise<unknown>) =>
  work.then(() => 'allowed', (e: { status?: number; code?: string; details?: Record<string, string> }) => ({ status: e.status, code: e.code, fields: e.details }));
