import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtp } from '../../tests/helpers/smtp.ts';

const PASSWORD = 'correct horse battery';

describe.each(DATABASE_KINDS)('a used reset link voids the others, on %s', (kind) => {
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

  /** Asks for a reset link and returns its token (a new one each time). */
  const seen = new Set<string>();
  const requestReset = async (email: string) => {
    expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/reset-password/do') && ![...seen].some((s) => m.text.includes(s)));
    const token = new URL(mail.link('/reset-password/do')).searchParams.get('token')!;
    seen.add(token);
    return token;
  };
  const reset = (token: string, password: string) => t.client().put('/api/password-reset.php', { token, password, password_confirm: password });

  it('using the newer of two reset links voids the older one', async () => {
    const { user } = await signUp(t);
    const older = await requestReset(user.email);
    const newer = await requestReset(user.email);
    expect(await t.services.lifecycle.tokenIsValid(older, 'password_reset')).toBe(true);

    expect((await reset(newer, 'amber rivers fold quietly')).status).toBe(200);

    // The page for the older link says it is invalid, and the API refuses it.
    expect(await t.services.lifecycle.tokenIsValid(older, 'password_reset')).toBe(false);
    const late = await reset(older, 'someone else took over');
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('reset_link_invalid');
    await t.client().login(user.email, 'amber rivers fold quietly');
    expect((await t.client().post('/api/user.php', { email: user.email, password: 'someone else took over' })).status).toBe(401);
  });

  it('using the older link voids the newer one too', async () => {
    const { user } = await signUp(t);
    const older = await requestReset(user.email);
    const newer = await requestReset(user.email);
    expect((await reset(older, 'amber rivers fold quietly')).status).toBe(200);
    expect((await reset(newer, 'someone else took over')).body.error.code).toBe('reset_link_invalid');
  });

  it('a reset ends every session of the member', async () => {
    const { client, user } = await signUp(t);
    const laptop = t.client();
    await laptop.login(user.email, PASSWORD);
    const token = await requestReset(user.email);
    expect((await reset(token, 'amber rivers fold quietly')).status).toBe(200);
    expect((await client.get('/api/user.php')).status).toBe(403);
    expect((await laptop.get('/api/user.php')).status).toBe(403);
  });

  it('a password change in the settings ends the other sessions, keeps this one, and voids outstanding reset links', async () => {
    const { client, user } = await signUp(t);
    const laptop = t.client();
    await laptop.login(user.email, PASSWORD);
    const token = await requestReset(user.email);
    const res = await client.put('/api/password.php', { old_password: PASSWORD, password: 'copper lantern sings at dusk', password_confirm: 'copper lantern sings at dusk' });
    expect(res.status).toBe(200);
    expect((await client.get('/api/user.php')).status).toBe(200);
    expect((await laptop.get('/api/user.php')).status).toBe(403);
    expect((await reset(token, 'amber rivers fold quietly')).body.error.code).toBe('reset_link_invalid');
    await t.client().login(user.email, 'copper lantern sings at dusk');
  });
});
