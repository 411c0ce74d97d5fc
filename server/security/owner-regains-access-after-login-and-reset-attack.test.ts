import { describe, expect, it } from 'vitest';
import { KNOWN_DEVICE_COOKIE } from '#common/constants.ts';
import { DATABASE_KINDS, type TestClient, type TestResponse } from '../../tests/helpers/test-app.ts';
import { ownerUnderAttack } from '../../tests/helpers/owner-under-attack.ts';

const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;

/**
 * Someone who knows a member's e-mail address guesses passwords from several addresses (the account's
 * log-in throttle then slows every device it does not know) and asks for reset mails. The owner must
 * still get in: the reset mail goes out, the new password works at once, on the device the reset was
 * made on and on others, while the mails an attacker can send to the inbox stay bounded.
 */
describe.each(DATABASE_KINDS)('the owner regains access after a log-in and reset attack on %s', (kind) => {
  const at = ownerUnderAttack(kind);
  const { device, owner, login } = at;
  const askReset = (c: TestClient, email: string) => c.post('/api/password-reset.php', { email });
  const resetMails = (email: string) => at.smtp.to(email).filter((m) => m.text.includes('/reset-password/do'));
  /** The newest reset mail's token, once it has arrived. */
  async function newestToken(email: string, count: number): Promise<string> {
    await at.smtp.waitFor(email, () => resetMails(email).length >= count);
    expect(resetMails(email)).toHaveLength(count);
    return new URL(resetMails(email).at(-1)!.link('/reset-password/do')).searchParams.get('token')!;
  }
  /** 20 wrong passwords from 4 addresses (5 each: every address and the account's count are then spent), then 3 reset requests. */
  async function attack(email: string, net: string): Promise<{ logins: number[]; resets: TestResponse[] }> {
    const logins: number[] = [];
    for (let a = 1; a <= 4; a++) {
      const attacker = device(`${net}.${a}`);
      for (let i = 0; i < 5; i++) logins.push((await login(attacker, email, `guess ${a}-${i}`)).status);
    }
    const resets: TestResponse[] = [];
    for (let a = 1; a <= 3; a++) resets.push(await askReset(device(`${net}.${a}`), email));
    return { logins, resets };
  }

  it('20 wrong passwords from 4 addresses and 3 reset requests: the owner resets from their own address and logs in minutes later', async () => {
    const { email } = await owner();
    const { logins, resets } = await attack(email, '203.0.113');
    expect(logins).toEqual(new Array(20).fill(401));
    expect(resets.map((r) => r.status)).toEqual([200, 200, 200]);
    await newestToken(email, 3);

    // While the attack lasts, a device the account does not know is slowed…
    const home = '198.51.100.200';
    const phone = device(home);
    const slowed = await login(phone, email, PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.body.error.code).toBe('login_throttled');

    // …but the owner asks for a reset from their own address, and the mail goes out.
    at.t.clock.advance(2 * MINUTE);
    expect((await askReset(phone, email)).status).toBe(200);
    const token = await newestToken(email, 4);
    at.t.clock.advance(3 * MINUTE);
    const fresh = 'Tulip harbour 2931 kite';
    expect((await phone.put('/api/password-reset.php', { token, password: fresh, password_confirm: fresh })).status).toBe(200);
    expect(phone.cookies.get(KNOWN_DEVICE_COOKIE)).toBeTruthy();

    // A minute later: in on the device of the reset, on another browser at home, and at another address.
    at.t.clock.advance(MINUTE);
    const signedIn = await login(phone, email, fresh);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe(email);
    expect((await login(device(home), email, fresh)).status).toBe(200);
    expect((await login(device(), email, fresh)).status).toBe(200);
    // The attacker's guesses at the old password still fail, and the attacker's addresses stay slowed.
    expect((await login(device('203.0.113.1'), email, PASSWORD)).status).toBe(429);
    expect((await login(device('203.0.113.9'), email, PASSWORD)).status).toBe(401);
  });

  it('the reset budget: 3 an hour per address and account, 10 an hour for the account, its own for a known device', async () => {
    const { email } = await owner();
    const laptop = device();
    expect((await login(laptop, email, PASSWORD)).status).toBe(200);
    await laptop.post('/api/logout.php');

    // One address cannot spend the account's budget: its fourth request is refused and counts for nothing.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await askReset(device('203.0.113.30'), email)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const refused = await askReset(device('203.0.113.30'), email);
    expect(refused.body.error).toEqual({
      code: 'reset_mail_limit', message: 'Too many password reset e-mails have been requested for this account. Please try again in 60 minutes.',
    });
    expect(refused.headers.get('retry-after')).toBe('3600');

    // Two more attacker addresses bring the account to 9 mails; the owner's own address still gets the 10th.
    for (const ip of ['203.0.113.31', '203.0.113.32']) {
      for (let i = 0; i < 3; i++) expect((await askReset(device(ip), email)).status).toBe(200);
    }
    expect((await askReset(device('198.51.100.201'), email)).status).toBe(200);
    await newestToken(email, 10);

    // Mail bombing is bounded: a fresh address gets no 11th mail this hour…
    at.t.clock.advance(10 * MINUTE);
    const bomb = await askReset(device('203.0.113.33'), email);
    expect(bomb.status).toBe(429);
    expect(bomb.body.error.message).toBe('Too many password reset e-mails have been requested for this account. Please try again in 50 minutes.');
    expect(bomb.headers.get('retry-after')).toBe('3000');
    // …but a device that logged in to the account before asks on its own budget (3 an hour).
    for (let i = 0; i < 3; i++) expect((await askReset(laptop, email)).status).toBe(200);
    expect((await askReset(laptop, email)).status).toBe(429);
    await newestToken(email, 13);
    // A device cookie of another account is no key to this one's budget.
    const { email: otherEmail } = await owner();
    const attacker = device('203.0.113.34');
    expect((await login(attacker, otherEmail, PASSWORD)).status).toBe(200);
    expect((await askReset(attacker, email)).status).toBe(429);

    // An hour after the first request the account's budget is back.
    at.t.clock.advance(50 * MINUTE);
    expect((await askReset(device('203.0.113.35'), email)).status).toBe(200);
    expect(resetMails(email).length).toBeLessThanOrEqual(14);
  });

  it('a reset clears the owner\'s own throttles: their address and the device of the reset', async () => {
    const { email } = await owner();
    const home = '198.51.100.202';
    // The owner forgot the password: five wrong tries from home, ten more on the phone that knows the account.
    const phone = device(home);
    expect((await login(phone, email, PASSWORD)).status).toBe(200);
    await phone.post('/api/logout.php');
    for (let i = 0; i < 10; i++) expect((await login(phone, email, `forgot ${i}`)).status).toBe(401);
    expect((await login(phone, email, PASSWORD)).status).toBe(429);
    const tablet = device(home);
    for (let i = 0; i < 5; i++) expect((await login(tablet, email, `forgot ${i}`)).status).toBe(401);
    expect((await login(device(home), email, PASSWORD)).status).toBe(429);

    expect((await askReset(phone, email)).status).toBe(200);
    const token = await newestToken(email, 1);
    const fresh = 'Maple lantern 4410 otter';
    expect((await phone.put('/api/password-reset.php', { token, password: fresh, password_confirm: fresh })).status).toBe(200);
    // No waiting for the quarter hour: the phone, and any browser at home, log in with the new password.
    expect((await login(phone, email, fresh)).status).toBe(200);
    expect((await login(device(home), email, fresh)).status).toBe(200);
  });
});
