import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordProblem } from '#common/passwords.ts';
import { signupSchema } from '#common/schemas.ts';
import { loadLocales } from '../i18n/i18n.ts';
import { commonPasswords, isCommonPassword } from '../accounts/password-policy.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtp } from '../../tests/helpers/smtp.ts';

const locales = loadLocales() as unknown as Record<string, { errors: Record<string, string> }>;

const NAME = 'Maximiliane';
const STRONG = 'violet kettle under nine maps';

/** Each weak password with the reason it is refused for (e-mail and name are the member's). */
const weak = (email: string) => [
  ['password123', 'password_common'],
  ['12345678', 'password_common'],
  ['        ', 'password_blank'],
  [email, 'password_is_email'],
  [email.toUpperCase(), 'password_is_email'],
  [email.slice(0, email.indexOf('@')), 'password_is_email'],
  [NAME.toLowerCase(), 'password_is_name'],
  // In the list as dragon123 and Dragon123; the comparison ignores case.
  ['dRAGON123', 'password_common'],
] as const;

describe('hole 7: weak passwords', () => {
  it('ships a list of at least 100,000 common and breached passwords, compared without case', async () => {
    expect((await commonPasswords()).size).toBeGreaterThanOrEqual(100_000);
    expect(await isCommonPassword('PASSWORD123')).toBe(true);
    expect(await isCommonPassword('iLoVeYoU2')).toBe(true);
    expect(await isCommonPassword(STRONG)).toBe(false);
  });

  it('counts characters as code points after NFC, does not trim, and refuses invisible-only passwords', () => {
    expect(passwordProblem('😀😀😀😀😀😀😀')).toBe('errors.password_too_short'); // 14 UTF-16 units, 7 characters
    expect(passwordProblem('😀😀😀😀😀😀😀😀')).toBeNull();
    expect(passwordProblem('e\u0301'.repeat(7))).toBe('errors.password_too_short'); // NFD: 14 code points, NFC: 7
    expect(passwordProblem(' abcdef ')).toBeNull(); // spaces count as typed
    expect(passwordProblem('\u200b'.repeat(8))).toBe('errors.password_blank');
    expect(passwordProblem('\u00a0\u3000\t\n    ')).toBe('errors.password_blank');
    expect(passwordProblem('x'.repeat(201))).toBe('errors.password_too_long');
    expect(passwordProblem('Anna Maria', { name: 'anna maria' })).toBe('errors.password_is_name');
    expect(passwordProblem('annamaria', { name: 'Anna Maria' })).toBe('errors.password_is_name');
  });

  it('the browser runs the same length, e-mail and name checks through the shared sign-up schema', () => {
    const base = { email: 'Maximiliane.K@example.org', name: NAME, date_of_birth: '1990-01-01', gender: 'female', country: 'NL' };
    const problemOf = (password: string) => {
      const r = signupSchema(new Date('2026-06-01')).safeParse({ ...base, password });
      return r.success ? null : r.error.issues.find((i) => i.path[0] === 'password')?.message;
    };
    expect(problemOf('        ')).toBe('errors.password_blank');
    expect(problemOf('short')).toBe('errors.password_too_short');
    expect(problemOf('maximiliane.k@EXAMPLE.org')).toBe('errors.password_is_email');
    expect(problemOf('MAXIMILIANE')).toBe('errors.password_is_name');
    expect(problemOf(STRONG)).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('hole 7: weak passwords on %s', (kind) => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(kind, { profiles: 3, smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
    await smtp.close();
  });

  let n = 0;
  const newEmail = () => `maximiliane.${kind}${++n}@example.org`;
  const signupBody = (email: string, password: string) => ({ email, name: NAME, password, date_of_birth: '1990-01-01', gender: 'female', country: 'NL' });

  const expectRefused = (res: { status: number; body: any }, code: string, lang = 'en') => {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details.password).toBe(locales[lang].errors[code]);
    expect(res.body.error.message).toBe(locales[lang].errors[code]);
  };

  const member = async () => {
    const email = newEmail();
    const client = t.client();
    expect((await client.post('/api/signup.php', signupBody(email, STRONG))).status).toBe(201);
    return { client, email };
  };

  it('sign-up refuses each weak password with its reason, creates nobody, and takes a strong passphrase', async () => {
    const email = newEmail();
    for (const [password, code] of weak(email)) {
      const client = t.client();
      expectRefused(await client.post('/api/signup.php', signupBody(email, password)), code);
      expect(client.cookies.has('auth.session')).toBe(false);
    }
    const de = t.client();
    de.cookies.set('locale', 'de');
    expectRefused(await de.post('/api/signup.php', signupBody(email, 'Password123')), 'password_common', 'de');
    const ok = t.client();
    expect((await ok.post('/api/signup.php', signupBody(email, STRONG))).status).toBe(201);
    await ok.login(email, STRONG);
  });

  it('password reset refuses each weak password with its reason, keeps the link usable, and takes a strong passphrase', async () => {
    const { email } = await member();
    expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/reset-password/do'));
    const token = new URL(mail.link('/reset-password/do')).searchParams.get('token')!;
    for (const [password, code] of weak(email)) {
      expectRefused(await t.client().put('/api/password-reset.php', { token, password, password_confirm: password }), code);
    }
    const fr = t.client();
    fr.cookies.set('locale', 'fr');
    expectRefused(await fr.put('/api/password-reset.php', { token, password: '12345678', password_confirm: '12345678' }), 'password_common', 'fr');
    // None of them was saved: the old password still works.
    await t.client().login(email, STRONG);
    expect((await t.client().put('/api/password-reset.php', { token, password: 'amber rivers fold quietly', password_confirm: 'amber rivers fold quietly' })).status).toBe(200);
    await t.client().login(email, 'amber rivers fold quietly');
  });

  it('password change refuses each weak password with its reason and takes a strong passphrase', async () => {
    const { client, email } = await member();
    for (const [password, code] of weak(email)) {
      expectRefused(await client.put('/api/password.php', { old_password: STRONG, password, password_confirm: password }), code);
    }
    await t.client().login(email, STRONG);
    expect((await client.put('/api/password.php', { old_password: STRONG, password: 'copper lantern sings at dusk', password_confirm: 'copper lantern sings at dusk' })).status).toBe(200);
    await t.client().login(email, 'copper lantern sings at dusk');
  });
});
