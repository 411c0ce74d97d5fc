import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, staffPasskeys, staffSessions } from '../db/schema.ts';
import { relyingParty } from './staff-passkeys.ts';
import { SoftAuthenticator } from '../../tests/helpers/soft-authenticator.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { refusal } from '../../tests/helpers/refusal.ts';

const RP = relyingParty('https://console.example.com', 'Amora');
const OTHER_DOMAIN = relyingParty('https://other.example.com', 'Other');

/**
 * Passkeys as the console's second factor (decision 062), with a software authenticator that signs for real: made
 * on the account page, they stand in for the TOTP code after the password, on their own domain only, once per
 * answer; removing one is the owner's alone; everything is audited.
 */
describe.each(DATABASE_KINDS)('staff passkeys on %s', (kind) => {
  let t: TestApp;
  let ips = 0;
  const from = () => ({ ip: `198.51.100.${++ips}`, rp: RP });
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  /** A staff member with one passkey on RP's domain. */
  async function withPasskey(): Promise<{ staff: TestStaff; key: SoftAuthenticator; id: number }> {
    const staff = await createStaff(t, { roles: ['moderator'] });
    const key = new SoftAuthenticator(RP.origin);
    const { options, state } = await t.services.console.passkeyOptions(staff.actor, RP);
    expect(options.rp).toEqual({ id: 'console.example.com', name: 'Amora' });
    const { id } = await t.services.console.addPasskey(staff.actor, { state, name: 'Work laptop', credential: key.register(options) }, RP, { ip: '198.51.100.1' });
    return { staff, key, id };
  }

  const signInStart = (staff: TestStaff, rp = RP) => t.services.staff.startSignIn(staff.email, staff.password, { ...from(), rp });

  it('a passkey made on the account page signs in after the password instead of the code, and the audit log says so', async () => {
    const { staff, key, id } = await withPasskey();
    expect((await t.services.console.passkeys(staff.actor)).map((p) => [p.id, p.name, p.domain, p.lastUsedAt])).toEqual([[id, 'Work laptop', 'console.example.com', null]]);
    const { challenge, passkey } = await signInStart(staff);
    expect(passkey?.allowCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    expect(passkey?.userVerification).toBe('required');
    const { token, actor } = await t.services.staff.finishSignInWithPasskey(challenge, key.answer(passkey!), from());
    expect(actor.staffId).toBe(staff.actor.staffId);
    expect(await t.services.staff.session(token)).toMatchObject({ staffId: staff.actor.staffId });
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.staffId, staff.actor.staffId));
    expect(audits.map((a) => [a.action, a.after])).toEqual([
      ['staff.api_token.create', { name: 'test', scopes: ['moderator'] }],
      ['staff.passkey.add', { name: 'Work laptop', domain: 'console.example.com' }],
      ['staff.sign_in', { method: 'passkey' }],
    ]);
    expect((await t.services.console.passkeys(staff.actor))[0].lastUsedAt).not.toBeNull();
    // The code still works as well.
    expect((await signInStart(staff)).passkey).not.toBeNull();
  });

  it('an answer opens one session: the same answer again, an old counter or another challenge\'s answer are refused', async () => {
    const { staff, key } = await withPasskey();
    const first = await signInStart(staff);
    const answer = key.answer(first.passkey!);
    await t.services.staff.finishSignInWithPasskey(first.challenge, answer, from());
    expect(await refusal(t.services.staff.finishSignInWithPasskey(first.challenge, answer, from()))).toBe('401 login_failed');
    // A fresh challenge answered with a counter that did not move on (a cloned authenticator).
    const second = await signInStart(staff);
    expect(await refusal(t.services.staff.finishSignInWithPasskey(second.challenge, key.answer(second.passkey!, key.counter), from()))).toBe('401 login_failed');
    // The answer to one challenge does not fit another.
    const third = await signInStart(staff);
    expect(await refusal(t.services.staff.finishSignInWithPasskey(third.challenge, key.answer(second.passkey!), from()))).toBe('401 login_failed');
    expect(await t.database.db.$count(staffSessions, eq(staffSessions.staffId, staff.actor.staffId))).toBe(1);
  });

  it('a passkey works on its own domain and for its own staff member only', async () => {
    const { staff, key } = await withPasskey();
    // On another domain the password step offers no passkey, and an answer made for this one is refused there.
    const elsewhere = await signInStart(staff, OTHER_DOMAIN);
    expect(elsewhere.passkey).toBeNull();
    const here = await signInStart(staff);
    expect(await refusal(t.services.staff.finishSignInWithPasskey(here.challenge, key.answer(here.passkey!), { ...from(), rp: OTHER_DOMAIN }))).toBe('401 login_failed');
    // Another staff member's challenge with this staff member's passkey.
    const other = await withPasskey();
    const theirs = await signInStart(other.staff);
    expect(await refusal(t.services.staff.finishSignInWithPasskey(theirs.challenge, key.answer(theirs.passkey!), from()))).toBe('401 login_failed');
    // A page at the wrong origin (a look-alike site) signs answers the server does not take.
    const phished = new SoftAuthenticator('https://console.example.com.evil.example', RP.id);
    const { options, state } = await t.services.console.passkeyOptions(staff.actor, RP);
    expect(await refusal(t.services.console.addPasskey(staff.actor, { state, name: 'Phished', credential: phished.register(options) }, RP))).toBe('400 passkey_failed');
  });

  it('adding refuses a state of someone else or an expired one, a broken answer, a bad name and a passkey known already', async () => {
    const { staff, key } = await withPasskey();
    const other = await createStaff(t, { roles: ['support'] });
    const { options, state } = await t.services.console.passkeyOptions(other.actor, RP);
    const fresh = new SoftAuthenticator(RP.origin);
    expect(await refusal(t.services.console.addPasskey(staff.actor, { state, name: 'Key', credential: fresh.register(options) }, RP))).toBe('400 passkey_expired');
    const mine = await t.services.console.passkeyOptions(staff.actor, RP);
    expect(mine.options.excludeCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    for (const credential of ['', 'not json', '{"id":"x"}', 'x'.repeat(20_000), JSON.stringify({ ...JSON.parse(fresh.register(mine.options)), type: 'other' }), 42]) {
      expect(await refusal(t.services.console.addPasskey(staff.actor, { state: mine.state, name: 'Key', credential }, RP))).toBe('400 passkey_failed');
    }
    for (const name of ['', ' ', 'a\u0007b', 'x'.repeat(61)]) {
      expect(await refusal(t.services.console.addPasskey(staff.actor, { state: mine.state, name, credential: fresh.register(mine.options) }, RP))).toBe('400 invalid_input');
    }
    expect(await refusal(t.services.console.addPasskey(staff.actor, { state: mine.state, name: 'Again', credential: key.register(mine.options) }, RP))).toBe('409 passkey_known');
    t.clock.advance(11 * 60_000);
    expect(await refusal(t.services.console.addPasskey(staff.actor, { state: mine.state, name: 'Late', credential: fresh.register(mine.options) }, RP))).toBe('400 passkey_expired');
    expect(await t.database.db.$count(staffPasskeys, eq(staffPasskeys.staffId, staff.actor.staffId))).toBe(1);
  });

  it('a removed passkey no longer signs in; another staff member cannot remove it', async () => {
    const { staff, key, id } = await withPasskey();
    const other = await createStaff(t, { roles: ['admin'] });
    expect(await refusal(t.services.console.removePasskey(other.actor, id))).toBe('404 not_found');
    const before = await signInStart(staff);
    await t.services.console.removePasskey(staff.actor, id, { ip: '198.51.100.2' });
    expect(await refusal(t.services.staff.finishSignInWithPasskey(before.challenge, key.answer(before.passkey!), from()))).toBe('401 login_failed');
    expect((await signInStart(staff)).passkey).toBeNull();
    expect(await refusal(t.services.console.removePasskey(staff.actor, id))).toBe('404 not_found');
  });
});
