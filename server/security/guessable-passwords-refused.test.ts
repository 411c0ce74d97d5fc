import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIE } from '#common/constants.ts';
import { normalizePassword, passwordLength, passwordProblem } from '#common/passwords.ts';
import { signupSchema } from '#common/schemas.ts';
import { requestContext } from '../../app/context.ts';
import { action as resetPageAction } from '../../app/routes/reset-password-do.tsx';
import { action as settingsPageAction } from '../../app/routes/notifications.tsx';
import { action as signupPageAction } from '../../app/routes/signup.tsx';
import { action as signupMatchesPageAction } from '../../app/routes/signup-matches.tsx';
import { action as memberSignupPageAction } from '../../app/routes/signup-member.tsx';
import { memberActor } from '../../tests/helpers/test-app.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtp } from '../../tests/helpers/smtp.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import { commonPasswords, isCommonPassword, memberWords, passwordRefusal, siteWords } from '../accounts/password-policy.ts';
import { estimateStrength, ESTIMATED_UNITS } from '../accounts/password-strength.ts';
import { users } from '../db/schema.ts';
import type { RequestContext } from '../http/context.ts';
import { createTranslator, loadLocales } from '../i18n/i18n.ts';

const locales = loadLocales() as unknown as Record<string, { errors: Record<string, string> }>;

const NAME = 'Maximiliane';
const BIRTH = '1990-07-14';
const STRONG = 'violet kettle under nine maps';
/** The test app's site (server/seed/seed.ts). */
const SITE = { name: 'Amora', domain: 'localhost', mailName: '' };

/**
 * The passwords of the attack, and more of their kind, with the reason each is refused for. The
 * e-mail address is the member's; they were born on BIRTH, on the site SITE.
 */
const weak = (email: string) => [
  ['Passw0rd!', 'password_common'],
  ['Welcome1!', 'password_common'],
  ['password1!', 'password_common'],
  ['Summer2024', 'password_common'],
  // Invisible and look-alike characters change nothing: a zero-width space, a soft hyphen, full-width letters.
  ['pass\u200Bword1!', 'password_common'],
  ['Wel\u00ADcome1!', 'password_common'],
  ['\uFF30\uFF41\uFF53\uFF53w0rd!', 'password_common'],
  ['Amora2024', 'password_site_name'],
  ['amora123!', 'password_site_name'],
  ['4mora2025!', 'password_site_name'],
  [`${NAME}1990`, 'password_personal'],
  [`${email.slice(0, email.indexOf('@'))}!`, 'password_personal'],
  ['14071990max', 'password_personal'],
  ['qwertz12', 'password_common'],
  ['x7#Kp2!q', 'password_guessable'],
  ['password123', 'password_common'],
  ['        ', 'password_blank'],
  ['\u200B'.repeat(8), 'password_blank'],
  [email, 'password_is_email'],
  [NAME.toLowerCase(), 'password_is_name'],
] as const;

/** Passphrases (and one random string) a person would choose: accepted everywhere. */
const GOOD = [STRONG, 'amber rivers fold quietly', 'copper lantern sings at dusk', 'correct horse battery', 'x7#Kp2!qZw'];

const cpuMs = (work: () => Promise<unknown>) => async () => {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

describe('guessable passwords are refused with their reason', () => {
  const owner = { email: 'maximiliane.k@example.org', name: NAME, birthDate: BIRTH };

  it('refuses common passwords, the site\'s name and the member\'s own details, also behind invisible characters; takes passphrases', async () => {
    for (const [password, code] of weak(owner.email)) {
      expect([password, await passwordRefusal(password, owner, SITE)]).toEqual([password, `errors.${code}`]);
    }
    for (const password of GOOD) expect([password, await passwordRefusal(password, owner, SITE)]).toEqual([password, null]);
    // The site's and the member's own words are what make these weak: elsewhere, or for someone else, they pass.
    expect(await passwordRefusal('Flirtopia2024', owner, SITE)).toBeNull();
    expect(await passwordRefusal('Flirtopia2024', owner, { name: 'Flirtopia', domain: 'flirtopia.example' })).toBe('errors.password_site_name');
    expect(await passwordRefusal('flirtopia123', owner, { name: 'Other', domain: 'www.flirtopia.nl' })).toBe('errors.password_site_name');
    expect(await passwordRefusal(`${NAME}1990`, { email: 'kim@example.org', name: 'Kim', birthDate: '1985-02-03' }, SITE)).toBeNull();
  });

  it('feeds the estimator the site\'s name and domain, and the member\'s name, address and date of birth as people write them', () => {
    expect(siteWords({ name: 'Love Bird', domain: 'www.lovebird.nl', mailName: 'LoveBird Team' }))
      .toEqual(['love bird', 'lovebird', 'love', 'bird', 'lovebird team', 'lovebirdteam', 'team', 'www.lovebird.nl']);
    expect(memberWords({ email: 'Anna.de-Vries@example.org', name: 'Anna de Vries', birthDate: '1990-07-14' })).toEqual([
      'anna de vries', 'annadevries', 'anna', 'vries', 'anna.de-vries', 'anna.de-vries@example.org',
      '1990', '14071990', '19900714', '07141990', '140790', '071490', '900714',
    ]);
  });

  it('normalises the same way when setting and when checking: NFKC, without invisible characters, case and spaces as typed', async () => {
    expect(normalizePassword('pass\u200Bword\u2060\uFEFF1!')).toBe('password1!');
    expect(normalizePassword('\uFF30\uFF41ss\u00A0word')).toBe('Pass word');
    expect(normalizePassword('e\u0301t\u00E9')).toBe('\u00E9t\u00E9');
    const stored = await hashPassword('violet\u200B kettle under nine maps');
    expect(await verifyPassword(stored, STRONG)).toBe(true);
    expect(await verifyPassword(stored, 'violet\u200B kettle under nine maps')).toBe(true);
    expect(await verifyPassword(stored, 'Violet kettle under nine maps')).toBe(false);
    // A hash made before normalising (of the password as typed) still takes exactly what was typed.
    const legacy = await hash('pass\u200Bword kettle\uFF01', { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(legacy, 'pass\u200Bword kettle\uFF01')).toBe(true);
    expect(await verifyPassword(legacy, 'password kettle!')).toBe(false);
  });

  it('counts characters after normalising, does not trim, and refuses invisible-only passwords', () => {
    expect(passwordProblem('😀😀😀😀😀😀😀')).toBe('errors.password_too_short'); // 14 UTF-16 units, 7 characters
    expect(passwordProblem('😀😀😀😀😀😀😀😀')).toBeNull();
    expect(passwordProblem('e\u0301'.repeat(7))).toBe('errors.password_too_short'); // NFD: 14 code points, NFKC: 7
    expect(passwordProblem('abcdefg\u200B')).toBe('errors.password_too_short');
    expect(passwordLength('abcdefg\u200B\u00AD')).toBe(7);
    expect(passwordProblem(' abcdef ')).toBeNull(); // spaces count as typed
    expect(passwordProblem('\u200b'.repeat(8))).toBe('errors.password_blank');
    expect(passwordProblem('\u00a0\u3000\t\n    ')).toBe('errors.password_blank');
    expect(passwordProblem('x'.repeat(201))).toBe('errors.password_too_long');
    expect(passwordProblem('Anna Maria', { name: 'anna maria' })).toBe('errors.password_is_name');
    expect(passwordProblem('anna\u200Bmaria', { name: 'Anna Maria' })).toBe('errors.password_is_name');
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
    expect(problemOf('MAXI\u200BMILIANE')).toBe('errors.password_is_name');
    expect(problemOf(STRONG)).toBeNull();
  });

  it('keeps the list of at least 100,000 common and breached passwords, compared without case', async () => {
    expect((await commonPasswords()).size).toBeGreaterThanOrEqual(100_000);
    expect(await isCommonPassword('PASSWORD123')).toBe(true);
    expect(await isCommonPassword('iLoVeYoU2')).toBe(true);
    expect(await isCommonPassword(STRONG)).toBe(false);
  });

  it('bounds the estimate: it reads the first 64 UTF-16 units, and no input of the longest allowed length costs more than a moment', async () => {
    await passwordRefusal('warm up the list and the estimator', owner, SITE);
    const inputs = { site: siteWords(SITE), member: memberWords(owner) };
    const start = 'qT7 violet kettle under nine maps, amber rivers fold quietly zz';
    expect(start).toHaveLength(ESTIMATED_UNITS - 1);
    const alone = await estimateStrength(`${start}!`, inputs);
    expect(await estimateStrength(`${start}!${'1'.repeat(136)}`, inputs)).toEqual(alone);
    // The slowest kinds of input found, at 200 characters (the longest password): l33t characters (every one
    // multiplies the readings), digits (dates), random characters. Each took several seconds before the bound.
    const slowest = ['1', '4@3!1|0$5', 'p4$$w0rd', '19900101', '1!|i', '#(q9Z"+d@W~', 'eeee3333'];
    for (const unit of slowest) {
      const password = unit.repeat(200).slice(0, 200);
      const ms = await cpuMs(() => passwordRefusal(password, owner, SITE))();
      expect(ms, `${unit}: ${ms} ms`).toBeLessThan(1_000);
    }
  });
});

describe.each(DATABASE_KINDS)('guessable passwords are refused on every path that sets one, on %s', (kind) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let translator: Awaited<ReturnType<typeof createTranslator>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(kind, { profiles: 3, smtpUrl: smtp.url });
    translator = await createTranslator();
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
    await smtp.close();
  });

  let n = 0;
  const newEmail = () => `maximiliane.${kind}${++n}@example.org`;
  const signupBody = (email: string, password: string) => ({ email, name: NAME, password, date_of_birth: BIRTH, gender: 'female', country: 'NL' });
  const userBy = async (email: string) => (await t.database.db.select().from(users).where(sql`lower(${users.email}) = ${email}`))[0];

  const expectRefused = (res: { status: number; body: any }, code: string, lang = 'en') => {
    expect([res.status, res.body.error?.code]).toEqual([400, code]);
    expect(res.body.error.details.password).toBe(locales[lang].errors[code]);
    expect(res.body.error.message).toBe(locales[lang].errors[code]);
  };

  const member = async () => {
    const email = newEmail();
    const client = t.client();
    expect((await client.post('/api/signup.php', signupBody(email, STRONG))).status).toBe(201);
    return { client, email };
  };

  const resetToken = async (email: string) => {
    expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/reset-password/do'));
    return new URL(mail.link('/reset-password/do')).searchParams.get('token')!;
  };

  /** A page action's arguments: the form, and the request context the server gives pages (a visitor, or `userId`). */
  let ip = 0;
  const pageArgs = async (path: string, fields: Record<string, string>, options: { userId?: number; session?: string; lang?: 'en' | 'de' } = {}) => {
    const site = await t.services.settings.siteForHost('localhost');
    const ctx = {
      services: t.services, site, translator, lang: options.lang ?? 'en', secure: false, clientIp: `198.51.100.${++ip}`,
      userId: options.userId ?? null, actor: options.userId ? memberActor(t, options.userId) : { kind: 'visitor', siteId: t.siteId },
      user: async () => (options.userId ? t.services.accounts.apiUser(options.userId) : null),
    } as unknown as RequestContext;
    const context = new RouterContextProvider();
    context.set(requestContext, ctx);
    const request = new Request(`http://localhost${path}`, {
      method: 'POST', body: new URLSearchParams(fields), headers: options.session ? { cookie: `${AUTH_COOKIE}=${options.session}` } : {},
    });
    return { request, context, params: {} } as never;
  };
  type Reply = { data: { result: { error?: Record<string, string[]> } }; init: { status: number } };
  const expectFieldRefusal = (answer: unknown, code: string, lang = 'en') => {
    const { data, init } = answer as Reply;
    expect([init.status, data.result.error?.password]).toEqual([400, [locales[lang].errors[code]]]);
  };

  it('sign-up by the API refuses each guessable password with its reason, creates nobody, and takes a passphrase', async () => {
    const email = newEmail();
    for (const [password, code] of weak(email)) {
      const client = t.client();
      expectRefused(await client.post('/api/signup.php', signupBody(email, password)), code);
      expect(client.cookies.has(AUTH_COOKIE)).toBe(false);
    }
    expect(await userBy(email)).toBeUndefined();
    const de = t.client();
    de.cookies.set('locale', 'de');
    expectRefused(await de.post('/api/signup.php', signupBody(email, 'Amora2024!')), 'password_site_name', 'de');
    const ok = t.client();
    expect((await ok.post('/api/signup.php', signupBody(email, STRONG))).status).toBe(201);
    await ok.login(email, STRONG);
  });

  it('the sign-up pages (/signup, which the modal posts to; /signup-matches; a member\'s landing sign-up) refuse them beside the password field', async () => {
    const pages = [['/signup', signupPageAction], ['/signup-matches', signupMatchesPageAction], ['/members/1/signup', memberSignupPageAction]] as const;
    for (const [path, pageAction] of pages) {
      const email = newEmail();
      const form = (password: string) => ({ intent: 'signup', steps: 'in-place', ...signupBody(email, password) });
      for (const [password, code] of weak(email)) expectFieldRefusal(await pageAction(await pageArgs(path, form(password))), code);
      expectFieldRefusal(await pageAction(await pageArgs(path, form('Summer2024'), { lang: 'de' })), 'password_common', 'de');
      expect(await userBy(email)).toBeUndefined();
      const done = await pageAction(await pageArgs(path, form(GOOD[1]))) as Reply;
      expect(done.init.status).toBe(200);
      expect(await userBy(email)).toBeDefined();
    }
  });

  it('password reset by the API and by its page refuses each one with its reason, keeps the link usable, and takes a passphrase', async () => {
    const { email } = await member();
    const token = await resetToken(email);
    for (const [password, code] of weak(email)) {
      expectRefused(await t.client().put('/api/password-reset.php', { token, password, password_confirm: password }), code);
      expectFieldRefusal(await resetPageAction(await pageArgs('/reset-password/do', { token, password, password_confirm: password })), code);
    }
    const fr = t.client();
    fr.cookies.set('locale', 'fr');
    expectRefused(await fr.put('/api/password-reset.php', { token, password: 'Passw0rd!', password_confirm: 'Passw0rd!' }), 'password_common', 'fr');
    // None of them was saved: the old password still works.
    await t.client().login(email, STRONG);
    const done = await resetPageAction(await pageArgs('/reset-password/do', { token, password: GOOD[1], password_confirm: GOOD[1] })) as Reply;
    expect(done.init.status).toBe(200);
    await t.client().login(email, GOOD[1]);
  });

  it('password change by the API and in the settings page refuses each one with its reason and takes a passphrase', async () => {
    const { client, email } = await member();
    // Each try from an address of its own: the endpoint counts log-in attempts per address.
    const sameMember = () => {
      const c = t.client();
      c.cookies.set(AUTH_COOKIE, client.cookies.get(AUTH_COOKIE)!);
      return c;
    };
    for (const [password, code] of weak(email)) {
      expectRefused(await sameMember().put('/api/password.php', { old_password: STRONG, password, password_confirm: password }), code);
    }
    await t.client().login(email, STRONG);
    const other = await member();
    const userId = (await userBy(other.email)).id;
    const session = other.client.cookies.get(AUTH_COOKIE);
    for (const [password, code] of weak(other.email)) {
      const form = { intent: 'password-change', old_password: STRONG, password, password_confirm: password };
      expectFieldRefusal(await settingsPageAction(await pageArgs('/notifications', form, { userId, session })), code);
    }
    await t.client().login(other.email, STRONG);
    expect((await client.put('/api/password.php', { old_password: STRONG, password: GOOD[2], password_confirm: GOOD[2] })).status).toBe(200);
    await t.client().login(email, GOOD[2]);
    const form = { intent: 'password-change', old_password: STRONG, password: GOOD[3], password_confirm: GOOD[3] };
    expect((await settingsPageAction(await pageArgs('/notifications', form, { userId, session })) as Reply).init.status).toBe(200);
    await t.client().login(other.email, GOOD[3]);
  });

  it('log-in keeps working for a member whose hash was made from the password as typed, before normalising', async () => {
    const { email } = await member();
    const typed = 'copper\u200B lantern sings at dusk\uFF01';
    const legacy = await hash(typed, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    await t.database.db.update(users).set({ passwordHash: legacy }).where(eq(users.email, email));
    await t.client().login(email, typed);
    expect((await t.client().post('/api/user.php', { email, password: 'copper lantern sings at dusk!' })).status).toBe(401);
    // A password set now is stored normalised: either way of typing it gets in.
    const { email: fresh } = await member();
    const token = await resetToken(fresh);
    expect((await t.client().put('/api/password-reset.php', { token, password: typed, password_confirm: typed })).status).toBe(200);
    await t.client().login(fresh, typed);
    await t.client().login(fresh, 'copper lantern sings at dusk!');
  });
});
