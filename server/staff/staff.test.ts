import { tmpdir } from 'node:os';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, companies, sites, staffApiTokens, staffMembers, staffRecoveryCodes, staffSessions } from '../db/schema.ts';
import { createLogger } from '../infra/logger.ts';
import { localStorage } from '../infra/storage.ts';
import { createServices } from '../services.ts';
import type { Services } from '../use-cases.ts';
import { DATABASE_KINDS, freshDatabase, testClock } from '../../tests/helpers/test-app.ts';
import { can, type StaffActor } from './staff-actor.ts';
import { STAFF_SESSION_IDLE_MS, STAFF_SESSION_LIFETIME_MS } from './staff-sign-in.ts';
import { hashSecret } from './staff-secrets.ts';
import { base32Decode, hotp, totpStep } from './totp.ts';
import { refusal } from '../../tests/helpers/refusal.ts';

const CLI = { kind: 'system', job: 'test' } as const;
const MINUTE = 60_000;

describe('can', () => {
  const actor = (roles: StaffActor['roles'], siteIds: number[] | null): StaffActor => ({ kind: 'staff', staffId: 1, roles, siteIds, companyIds: null });

  it('asks for the role (admin has them all) and, for scoped staff, the site', () => {
    expect(can(actor(['moderator'], null), 'moderator', 7)).toBe(true);
    expect(can(actor(['moderator'], null), 'finance', 7)).toBe(false);
    expect(can(actor(['admin'], null), 'finance', null)).toBe(true);
    expect(can(actor(['support'], [3]), 'support', 3)).toBe(true);
    expect(can(actor(['support'], [3]), 'support', 4)).toBe(false);
    // Something of no one site (other staff accounts) is for staff of every site only.
    expect(can(actor(['admin'], [3]), 'admin', null)).toBe(false);
  });
});

describe.each(DATABASE_KINDS)('staff identities on %s', (kind) => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let services: Services;
  const clock = testClock();
  let ips = 0;
  /** Each test signs in from its own address, so that one test's failures do not throttle the next. */
  const from = () => ({ ip: `192.0.2.${++ips}` });
  const codeAt = (secret: string, at = clock()) => hotp(base32Decode(secret), totpStep(at));

  beforeAll(async () => {
    database = await freshDatabase(kind);
    services = createServices({ db: database.db, clock, storage: localStorage(tmpdir()), logger: createLogger('silent') });
  });
  afterAll(() => database?.drop());

  async function newStaff(email: string, roles: ('moderator' | 'support' | 'finance' | 'admin')[] = ['moderator']) {
    return services.staff.create(CLI, { email, name: email.split('@')[0], roles });
  }

  async function signIn(credentials: { email: string; password: string; totpSecret: string }, ip = from()) {
    const { challenge } = await services.staff.startSignIn(credentials.email, credentials.password, ip);
    return services.staff.finishSignIn(challenge, codeAt(credentials.totpSecret), ip);
  }

  it('creates staff with secrets shown once and kept only hashed, audited; refuses a second account for one address', async () => {
    const created = await newStaff('Ann@Example.com', ['admin']);
    expect(created).toMatchObject({ email: 'ann@example.com', totpSecret: expect.stringMatching(/^[A-Z2-7]{32}$/) });
    expect(created.otpauthUri).toContain(`secret=${created.totpSecret}`);
    expect(created.recoveryCodes).toHaveLength(10);
    expect(new Set(created.recoveryCodes).size).toBe(10);
    const [row] = await database.db.select().from(staffMembers).where(eq(staffMembers.id, created.id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.roles).toEqual(['admin']);
    const codes = await database.db.select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, created.id));
    expect(codes.map((c) => c.codeHash).sort()).toEqual(created.recoveryCodes.map((c) => hashSecret(c.replaceAll('-', ''))).sort());
    const [audit] = await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'staff.create'), eq(auditLog.objectId, String(created.id))));
    expect(audit).toMatchObject({ staffId: null, role: 'system', objectType: 'staff_member', after: { email: 'ann@example.com', roles: ['admin'] } });
    expect(JSON.stringify(audit)).not.toContain(created.password);

    expect(await refusal(newStaff(' ANN@example.com '))).toBe('409 email_taken');
    expect(await refusal(services.staff.create(CLI, { email: 'not-an-address', name: 'X', roles: ['admin'] }))).toBe('400 invalid_input');
    expect(await refusal(services.staff.create(CLI, { email: 'x@example.com', name: 'X', roles: [] }))).toBe('400 invalid_input');
  });

  it('lets only an admin of every site create staff', async () => {
    const admin = await newStaff('boss@example.com', ['admin']);
    const moderator = await newStaff('mo@example.com', ['moderator']);
    const asAdmin = (await signIn(admin)).actor;
    const asModerator = (await signIn(moderator)).actor;
    expect(await refusal(services.staff.create(asModerator, { email: 'new@example.com', name: 'New', roles: ['support'] }))).toBe('403 forbidden');
    expect(await refusal(services.staff.create({ ...asAdmin, siteIds: [1] }, { email: 'new@example.com', name: 'New', roles: ['support'] }))).toBe('403 forbidden');
    const made = await services.staff.create(asAdmin, { email: 'new@example.com', name: 'New', roles: ['support'] }, { ip: '198.51.100.9' });
    const [audit] = await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'staff.create'), eq(auditLog.objectId, String(made.id))));
    expect(audit).toMatchObject({ staffId: admin.id, role: 'admin', ip: '198.51.100.9' });
  });

  it('signs in with the password and then a TOTP code: a session that names the staff member, audited', async () => {
    const staff = await newStaff('sam@example.com', ['support', 'finance']);
    const { token, actor } = await signIn(staff, { ip: '203.0.113.5' });
    expect(actor).toEqual({ kind: 'staff', staffId: staff.id, roles: ['support', 'finance'], siteIds: null, companyIds: null });
    expect(await services.staff.session(token)).toEqual(actor);
    // The cookie's token is not what the table keeps.
    expect(await database.db.$count(staffSessions, eq(staffSessions.id, token))).toBe(0);
    expect(await database.db.$count(staffSessions, eq(staffSessions.id, hashSecret(token)))).toBe(1);
    const [row] = await database.db.select().from(staffMembers).where(eq(staffMembers.id, staff.id));
    expect(row.totpConfirmedAt).toEqual(clock());
    const [audit] = await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'staff.sign_in'), eq(auditLog.staffId, staff.id)));
    expect(audit).toMatchObject({ role: 'support', ip: '203.0.113.5', after: { method: 'totp' } });
    await services.staff.endSession(token);
    expect(await services.staff.session(token)).toBeNull();
  });

  it('answers an unknown address and a wrong password alike, after hashing the password either way', async () => {
    const staff = await newStaff('wes@example.com');
    const timed = async (email: string) => {
      const start = performance.now();
      const answer = await refusal(services.staff.startSignIn(email, 'not the password', from()));
      return { answer, ms: performance.now() - start };
    };
    const unknown = [await timed('nobody@example.com'), await timed('nobody@example.com'), await timed('nobody@example.com')];
    const wrong = [await timed(staff.email), await timed(staff.email), await timed(staff.email)];
    expect(new Set([...unknown, ...wrong].map((r) => r.answer))).toEqual(new Set(['401 login_failed']));
    // Both hash (tens of milliseconds); an unknown address answered without hashing would be many times faster.
    const fastest = (runs: { ms: number }[]) => Math.min(...runs.map((r) => r.ms));
    expect(fastest(unknown)).toBeGreaterThan(fastest(wrong) / 4);
  });

  it('refuses a wrong code, a code already used, a tampered or expired challenge', async () => {
    const staff = await newStaff('rex@example.com');
    const ip = from();
    const { challenge } = await services.staff.startSignIn(staff.email, staff.password, ip);
    const right = codeAt(staff.totpSecret);
    const wrong = right === '000000' ? '000001' : '000000';
    expect(await refusal(services.staff.finishSignIn(challenge, wrong, ip))).toBe('401 login_failed');
    expect(await refusal(services.staff.finishSignIn(`${challenge.split('.')[0].replace(/^\d+/, '1')}.x`, right, ip))).toBe('401 login_failed');
    await services.staff.finishSignIn(challenge, right, ip);
    // The same code again, even on a new challenge: refused.
    const again = await services.staff.startSignIn(staff.email, staff.password, ip);
    expect(await refusal(services.staff.finishSignIn(again.challenge, right, ip))).toBe('401 login_failed');
    // The next step's code is good.
    clock.advance(30_000);
    expect((await services.staff.finishSignIn(again.challenge, codeAt(staff.totpSecret), ip)).actor.staffId).toBe(staff.id);
    // A challenge lasts five minutes.
    const late = await services.staff.startSignIn(staff.email, staff.password, ip);
    clock.advance(5 * MINUTE + 30_000);
    expect(await refusal(services.staff.finishSignIn(late.challenge, codeAt(staff.totpSecret), ip))).toBe('401 login_failed');
  });

  it('takes each recovery code once, however it is typed', async () => {
    const staff = await newStaff('ria@example.com');
    const ip = from();
    const [code] = staff.recoveryCodes;
    const first = await services.staff.startSignIn(staff.email, staff.password, ip);
    const { actor } = await services.staff.finishSignIn(first.challenge, ` ${code.toLowerCase().replaceAll('-', '')} `, ip);
    expect(actor.staffId).toBe(staff.id);
    const second = await services.staff.startSignIn(staff.email, staff.password, ip);
    expect(await refusal(services.staff.finishSignIn(second.challenge, code, ip))).toBe('401 login_failed');
    expect(await refusal(services.staff.finishSignIn(second.challenge, 'AAAA-AAAA-AAAA-AAAA', ip))).toBe('401 login_failed');
    expect((await services.staff.finishSignIn(second.challenge, staff.recoveryCodes[1], ip)).actor.staffId).toBe(staff.id);
    expect(await database.db.$count(staffRecoveryCodes, and(eq(staffRecoveryCodes.staffId, staff.id)))).toBe(10);
  });

  it('refuses a disabled staff member at sign-in, in their sessions and through their tokens', async () => {
    const staff = await newStaff('dan@example.com', ['moderator']);
    const { token, actor } = await signIn(staff);
    const api = await services.staff.createToken(actor, { name: 'bot', scopes: ['moderator'] });
    await services.staff.disable(CLI, staff.id);
    expect(await services.staff.session(token)).toBeNull();
    expect(await services.staff.verifyToken(api.token)).toBeNull();
    expect(await refusal(services.staff.startSignIn(staff.email, staff.password, from()))).toBe('401 login_failed');
    expect(await refusal(services.staff.disable(CLI, staff.id))).toBe('404 not_found');
    expect(await database.db.$count(auditLog, and(eq(auditLog.action, 'staff.disable'), eq(auditLog.objectId, String(staff.id))))).toBe(1);
  });

  it('throttles failures per client address and per account, right password or not', async () => {
    const staff = await newStaff('tom@example.com');
    const ip = from();
    for (let i = 0; i < 10; i++) expect(await refusal(services.staff.startSignIn(staff.email, `wrong ${i}`, ip))).toBe('401 login_failed');
    expect(await refusal(services.staff.startSignIn(staff.email, staff.password, ip))).toBe('429 login_throttled');
    // The same address is held back for another account too.
    expect(await refusal(services.staff.startSignIn('other@example.com', 'x', ip))).toBe('429 login_throttled');
    // From many addresses, the account's own budget runs out.
    for (let i = 0; i < 10; i++) await refusal(services.staff.startSignIn(staff.email, `wrong ${i}`, from()));
    expect(await refusal(services.staff.startSignIn(staff.email, staff.password, from()))).toBe('429 login_throttled');
    clock.advance(61 * MINUTE);
    expect((await signIn(staff)).actor.staffId).toBe(staff.id);
  });

  it('ends a session after 30 idle minutes, and 12 hours after sign-in however busy', async () => {
    const staff = await newStaff('ida@example.com');
    const idle = await signIn(staff);
    clock.advance(STAFF_SESSION_IDLE_MS - MINUTE);
    expect(await services.staff.session(idle.token)).not.toBeNull();
    clock.advance(STAFF_SESSION_IDLE_MS - MINUTE);
    expect(await services.staff.session(idle.token)).not.toBeNull();
    clock.advance(STAFF_SESSION_IDLE_MS);
    expect(await services.staff.session(idle.token)).toBeNull();
    expect(await database.db.$count(staffSessions, eq(staffSessions.id, hashSecret(idle.token)))).toBe(0);

    clock.advance(30_000);
    const busy = await signIn(staff);
    const end = clock().getTime() + STAFF_SESSION_LIFETIME_MS;
    while (clock().getTime() + 20 * MINUTE < end) {
      clock.advance(20 * MINUTE);
      expect(await services.staff.session(busy.token)).not.toBeNull();
    }
    clock.set(new Date(end).toISOString());
    expect(await services.staff.session(busy.token)).toBeNull();
  });

  it('reaches the sites of its scope: its own and those of its companies', async () => {
    const [company] = await database.db.insert(companies).values({ name: 'C', address: 'A', kvk: '1', city: 'X', country: 'NL' }).returning();
    const [one, two] = await database.db.insert(sites).values([
      { domain: 'one.test', companyId: company.id, name: 'One' }, { domain: 'two.test', companyId: company.id, name: 'Two' },
    ]).returning();
    const [lone] = await database.db.insert(sites).values({ domain: 'lone.test', companyId: company.id, name: 'Lone' }).returning();
    await database.db.delete(sites).where(eq(sites.id, lone.id));
    const staff = await services.staff.create(CLI, { email: 'sue@example.com', name: 'Sue', roles: ['support'], siteIds: [99], companyIds: [company.id] });
    const { actor } = await signIn(staff);
    expect(actor.siteIds).toEqual([one.id, two.id, 99].sort((a, b) => a - b));
    expect(can(actor, 'support', two.id)).toBe(true);
    expect(can(actor, 'support', lone.id)).toBe(false);
    expect(can(actor, 'moderator', one.id)).toBe(false);
  });

  it('gives API tokens once, keeps them hashed, acts with their scopes and refuses them revoked', async () => {
    const staff = await newStaff('api@example.com', ['moderator', 'support']);
    const { actor } = await signIn(staff);
    expect(await refusal(services.staff.createToken(actor, { name: 'pay', scopes: ['finance'] }))).toBe('403 forbidden');
    const { id, token } = await services.staff.createToken(actor, { name: 'queue bot', scopes: ['moderator'] });
    const [row] = await database.db.select().from(staffApiTokens).where(eq(staffApiTokens.id, id));
    expect(row.tokenHash).toBe(hashSecret(token));
    expect(Object.values(row).map(String)).not.toContain(token);
    expect(await services.staff.verifyToken(token)).toEqual({ ...actor, roles: ['moderator'] });
    expect((await database.db.select().from(staffApiTokens).where(eq(staffApiTokens.id, id)))[0].lastUsedAt).toEqual(clock());
    expect(await services.staff.verifyToken(`${token}x`)).toBeNull();

    // Someone else's token is not theirs to revoke (an admin's is).
    const other = (await signIn(await newStaff('oth@example.com', ['moderator']))).actor;
    expect(await refusal(services.staff.revokeToken(other, id))).toBe('404 not_found');
    await services.staff.revokeToken(actor, id);
    expect(await services.staff.verifyToken(token)).toBeNull();
    expect(await refusal(services.staff.revokeToken(actor, id))).toBe('404 not_found');
    const actions = await database.db.select({ action: auditLog.action, after: auditLog.after }).from(auditLog).where(eq(auditLog.objectId, String(id)));
    expect(actions).toEqual(expect.arrayContaining([
      { action: 'staff.api_token.create', after: { name: 'queue bot', scopes: ['moderator'] } },
      { action: 'staff.api_token.revoke', after: { revoked: true } },
    ]));
    expect(JSON.stringify(actions)).not.toContain(token);
  });
});
