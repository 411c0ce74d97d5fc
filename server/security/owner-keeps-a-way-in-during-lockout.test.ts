import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { KNOWN_DEVICE_COOKIE } from '#common/constants.ts';
import { DATABASE_KINDS, type TestResponse } from '../../tests/helpers/test-app.ts';
import { ownerUnderAttack } from '../../tests/helpers/owner-under-attack.ts';

const PASSWORD = 'correct horse battery';

describe.each(DATABASE_KINDS)('the owner keeps a way in during a lock-out, on %s', (kind) => {
  const at = ownerUnderAttack(kind);
  const { device, owner, login } = at;
  /** Five wrong passwords then one more from each attacker address: every address is slowed, and so is the e-mail. */
  async function attack(email: string, net: string): Promise<TestResponse[]> {
    const out: TestResponse[] = [];
    for (let ip = 0; ip < 5; ip++) {
      const attacker = device(`${net}.${ip + 1}`);
      for (let i = 0; i < 6; i++) out.push(await login(attacker, email, `guess ${ip}-${i}`));
    }
    return out;
  }

  it('keeps the owner able to log in: from a known device, and from a fresh one through the reset mail', async () => {
    const { email } = await owner();
    const laptop = device();
    expect((await login(laptop, email, PASSWORD)).status).toBe(200);
    const cookie = laptop.cookies.get(KNOWN_DEVICE_COOKIE);
    expect(cookie).toBeTruthy();
    await laptop.get('/api/logout.php');

    const statuses = (await attack(email, '203.0.113')).map((r) => r.status);
    expect(statuses.filter((s) => s === 423)).toEqual([]);
    expect(statuses.at(-1)).toBe(429);

    // The known device goes straight in.
    const back = await login(laptop, email, PASSWORD);
    expect(back.status).toBe(200);
    expect(back.body.user.email).toBe(email);

    // A new device is slowed while the attack lasts (same answer as for every address)…
    const phone = device();
    const slowed = await login(phone, email, PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.body.error.code).toBe('login_throttled');
    // …but the reset link in the owner's mailbox always works, and then the log-in too.
    expect((await phone.post('/api/password-reset.php', { email })).status).toBe(200);
    const mail = await at.smtp.waitFor(email, (m) => m.text.includes('/reset-password/do'));
    const token = new URL(mail.link('/reset-password/do')).searchParams.get('token');
    const fresh = 'Tulip harbour 2931 kite';
    expect((await phone.put('/api/password-reset.php', { token, password: fresh, password_confirm: fresh })).status).toBe(200);
    expect((await login(phone, email, fresh)).status).toBe(200);
    expect((await login(device(), email, fresh)).status).toBe(200);
  });

  it('only a signed cookie of this very account makes a device known; known devices have their own limit', async () => {
    const { email } = await owner();
    const laptop = device();
    const first = await login(laptop, email, PASSWORD);
    const set = first.headers.getSetCookie().find((c) => c.startsWith(`${KNOWN_DEVICE_COOKIE}=`))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(Number(/Max-Age=(\d+)/i.exec(set)![1])).toBeGreaterThan(300 * 24 * 3600);
    const genuine = laptop.cookies.get(KNOWN_DEVICE_COOKIE)!;
    await attack(email, '203.0.114');

    // An attacker with a device cookie of their own account, or a forged one, is still slowed.
    const other = await owner();
    const attacker = device();
    expect((await login(attacker, other.email, PASSWORD)).status).toBe(200);
    expect((await login(attacker, email, PASSWORD)).status).toBe(429);
    const [id] = genuine.split('.');
    const forged = device();
    forged.cookies.set(KNOWN_DEVICE_COOKIE, genuine.replace(`${id}.`, `${Number(id) + 1}.`));
    expect((await login(forged, email, PASSWORD)).status).toBe(429);
    forged.cookies.set(KNOWN_DEVICE_COOKIE, `${genuine.slice(0, -4)}AAAA`);
    expect((await login(forged, email, PASSWORD)).status).toBe(429);

    // The known device: 10 wrong passwords, then it waits too.
    for (let i = 0; i < 10; i++) expect((await login(laptop, email, `typo ${i}`)).status).toBe(401);
    expect((await login(laptop, email, PASSWORD)).status).toBe(429);
    at.t.clock.advance(15 * 60_000);
    expect((await login(laptop, email, PASSWORD)).status).toBe(200);
  });

  it('answers an unknown and a known e-mail address identically through the whole sequence', async () => {
    const { email } = await owner();
    const unknown = `nobody.${randomBytes(4).toString('hex')}@example.org`;
    const known = await attack(email, '203.0.115');
    const none = await attack(unknown, '203.0.116');
    const shape = (r: TestResponse) => ({ status: r.status, body: r.body, retryAfter: r.headers.get('retry-after') });
    expect(none.map(shape)).toEqual(known.map(shape));
    // Five failures per address, then 429 for that address; after 20 in all, 429 for every new address.
    const expected = [401, 401, 401, 401, 401, 429, 401, 401, 401, 401, 401, 429, 401, 401, 401, 401, 401, 429,
      401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429];
    expect(known.map((r) => r.status)).toEqual(expected);
    expect(known[5].body.error.code).toBe('login_throttled');
    // Different case and spacing are the same address for the throttle.
    expect((await login(device(), `  ${email.toUpperCase()} `, 'guess')).status).toBe(429);
    // An hour later the e-mail's count has started again.
    at.t.clock.advance(60 * 60_000);
    expect((await login(device(), email, 'guess')).status).toBe(401);
    expect((await login(device(), unknown, 'guess')).status).toBe(401);
  });
});
