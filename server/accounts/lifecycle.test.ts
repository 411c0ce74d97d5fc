import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountTokens, creditLedger, photos, profiles, sessions, users } from '../db/schema.ts';
import { loadLocales } from '../i18n/i18n.ts';
import { addCredits } from '../credits/ledger.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtp } from '../../tests/helpers/smtp.ts';

const locales = loadLocales() as unknown as Record<string, { errors: Record<string, string>; mail: Record<string, Record<string, string>> }>;
const HOUR = 3_600_000;

/** Follows a link from a mail through the in-process app (keeping the path and query). */
const follow = (client: TestClient, url: string) => client.get(new URL(url).pathname + new URL(url).search);

describe.each(DATABASE_KINDS)('account lifecycle on %s', (kind) => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(kind, { profiles: 3, smtpUrl: smtp.url, env: { MAIL_FROM: 'no-reply@mail.example.com' } });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
    await smtp.close();
  });

  const fresh = async (lang = 'en', confirmed = false) => {
    const email = `m${Math.random().toString(36).slice(2, 10)}@example.org`;
    const s = await signUp(t, { email }, { confirmed });
    if (lang !== 'en') await s.client.put('/api/user.php', { language: lang });
    return { ...s, email };
  };

  it('sends the activation mail in the member\'s language with both parts, brand and company; the link activates once', async () => {
    const client = t.client();
    client.cookies.set('locale', 'de');
    const email = 'neu.mitglied@example.org';
    const res = await client.post('/api/signup.php', { email, name: 'Greta', password: 'long enough pw', date_of_birth: '1990-01-01', gender: 'female', country: 'DE' });
    expect(res.status).toBe(201);
    await t.services.events.settle();
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe(locales.de.mail.activation.subject.replace('{{site}}', 'Amora'));
    expect(mail.parsed.from?.text).toBe('"Amora" <no-reply@mail.example.com>');
    // The address was typed by whoever signed up: the mail names nobody.
    expect(mail.text).toMatch(/^Hallo,$/m);
    expect(mail.html).toContain('<p>Hallo,</p>');
    for (const part of [mail.text, mail.html]) expect(part).not.toContain('Greta');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Amora');
      expect(part).toMatch(/KvK/);
    }
    expect(mail.parsed.headers.get('content-language')).toBe('de');
    const link = mail.link('/api/activate.php?token=');
    const first = await follow(client, link);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/activate/done');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row.status).toBe('active');
    expect(row.activatedAt).not.toBeNull();
    // Single use: the same link again, or a made-up one, goes to the error page.
    expect((await follow(client, link)).headers.get('location')).toBe('/activate/error');
    expect((await client.get('/api/activate.php?token=nonsense-token-that-is-long-enough')).headers.get('location')).toBe('/activate/error');
  });

  it('expires activation links after 7 days; a new one can be requested, within a limit', async () => {
    const { client, email } = await fresh();
    await t.services.events.settle();
    const link = (await smtp.waitFor(email)).link('/api/activate.php');
    t.clock.advance(7 * 24 * HOUR + 1000);
    expect((await follow(client, link)).headers.get('location')).toBe('/activate/error');
    // A week without use ended the session too.
    await client.login(email, 'correct horse battery');
    expect((await client.post('/api/activation-mail.php')).status).toBe(200);
    const again = await smtp.waitFor(email, (m) => m.link('/api/activate.php') !== link);
    expect((await follow(client, again.link('/api/activate.php'))).headers.get('location')).toBe('/activate/done');
    const done = await client.post('/api/activation-mail.php');
    expect(done.status).toBe(409);
    expect(done.body.error.code).toBe('already_activated');
  });

  it('refuses messages to a member whose e-mail is not confirmed, with a clear error', async () => {
    const unconfirmed = await fresh('en', false);
    const sender = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, sender.user.id, 20, 'demo_grant', `g${sender.user.id}`));
    const res = await sender.client.post('/api/messages.php', { profile_id: unconfirmed.user.id, text: 'hi' }, { 'idempotency-key': 'unconfirmed-01' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'recipient_unconfirmed', message: locales.en.errors.recipient_unconfirmed });
    expect((await sender.client.get('/api/user.php')).body.user.credits).toBe(20);
    // The unconfirmed member may still write first.
    await t.database.db.transaction((tx) => addCredits(tx, unconfirmed.user.id, 20, 'demo_grant', `g${unconfirmed.user.id}`));
    expect((await unconfirmed.client.post('/api/messages.php', { profile_id: sender.user.id, text: 'hello' }, { 'idempotency-key': 'unconfirmed-02' })).status).toBe(201);
  });

  it('resets a password by mail: unknown address, mismatch, single use, expiry, sessions end, 10 mails an hour', async () => {
    const { client, email } = await fresh('nl', true);
    const other = t.client();
    await other.login(email, 'correct horse battery');
    const unknown = await t.client().post('/api/password-reset.php', { email: 'nobody@example.org' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('email_not_found');
    expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
    const mail = await smtp.waitFor(email, (m) => m.subject.includes(locales.nl.mail.password_reset.subject.slice(0, 10)));
    expect(mail.text).toContain('Hallo');
    const token = new URL(mail.link('/reset-password/do')).searchParams.get('token')!;
    const mismatch = await t.client().put('/api/password-reset.php', { token, password: 'new password 1', password_confirm: 'new password 2' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('passwords_mismatch');
    expect((await t.client().put('/api/password-reset.php', { token, password: 'new password 1', password_confirm: 'new password 1' })).status).toBe(200);
    expect((await client.get('/api/user.php')).status).toBe(403);
    expect((await other.get('/api/user.php')).status).toBe(403);
    await t.client().login(email, 'new password 1');
    const reused = await t.client().put('/api/password-reset.php', { token, password: 'new password 3', password_confirm: 'new password 3' });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('reset_link_invalid');

    expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
    const late = new URL((await smtp.waitFor(email, (m) => !m.text.includes(token) && m.text.includes('/reset-password/do'))).link('/reset-password/do')).searchParams.get('token');
    t.clock.advance(2 * HOUR + 1000);
    expect((await t.client().put('/api/password-reset.php', { token: late, password: 'new password 4', password_confirm: 'new password 4' })).body.error.code).toBe('reset_link_invalid');
    // Each client here has an address of its own: the account's budget of 10 an hour (docs/decisions/012) is the limit.
    for (let i = 0; i < 10; i++) expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
    const limited = await t.client().post('/api/password-reset.php', { email });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'reset_mail_limit', message: locales.en.errors.reset_mail_limit_other.replace('{{count}}', '60') });
    expect(limited.headers.get('retry-after')).toBe('3600');
    t.clock.advance(HOUR);
    expect((await t.client().post('/api/password-reset.php', { email })).status).toBe(200);
  });

  it('changes the password with the old one and ends the other sessions only', async () => {
    const { client, email } = await fresh('en', true);
    const other = t.client();
    await other.login(email, 'correct horse battery');
    const wrong = await client.put('/api/password.php', { old_password: 'nope nope', password: 'brand new pw', password_confirm: 'brand new pw' });
    expect(wrong.body.error.code).toBe('old_password_wrong');
    expect((await client.put('/api/password.php', { old_password: 'correct horse battery', password: 'brand new pw', password_confirm: 'brand new pw' })).status).toBe(200);
    expect((await client.get('/api/user.php')).status).toBe(200);
    expect((await other.get('/api/user.php')).status).toBe(403);
  });

  it('changes the e-mail address after confirmation from the new address', async () => {
    const { client, user, email } = await fresh('fr', true);
    const invalid = await client.post('/api/mail-change.php', { email: 'not-an-address', password: 'correct horse battery' });
    expect(invalid.body.error).toMatchObject({ code: 'email_invalid', message: (loadLocales().fr as { errors: Record<string, string> }).errors.email_invalid });
    const taken = await client.post('/api/mail-change.php', { email: 'demo@example.com', password: 'correct horse battery' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('email_taken');
    const newEmail = `new.${email}`;
    expect((await client.post('/api/mail-change.php', { email: newEmail, password: 'correct horse battery' })).status).toBe(200);
    const mail = await smtp.waitFor(newEmail);
    expect(mail.subject).toBe(locales.fr.mail.email_change.subject.replace('{{site}}', 'Amora'));
    expect(smtp.to(email).some((m) => m.text.includes('/mail-change/do'))).toBe(false);
    const token = new URL(mail.link('/mail-change/do')).searchParams.get('token');
    expect(await t.services.lifecycle.confirmEmailChange(token)).toBe('changed');
    expect(await t.services.lifecycle.confirmEmailChange(token)).toBe('invalid');
    expect((await client.get('/api/user.php')).body.user.email).toBe(newEmail);
    expect(user.id).toBeGreaterThan(0);
  });

  it('throttles 5 failed log-ins per address and device for 15 minutes without locking the account; success resets the count', async () => {
    const { email } = await fresh('en', true);
    const c = t.client();
    for (let i = 0; i < 4; i++) expect((await c.post('/api/user.php', { email, password: 'wrong' })).status).toBe(401);
    await c.login(email, 'correct horse battery');
    const attacker = t.client();
    for (let i = 0; i < 5; i++) expect((await attacker.post('/api/user.php', { email, password: 'wrong' })).status).toBe(401);
    const sixth = await attacker.post('/api/user.php', { email, password: 'correct horse battery' });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('900');
    expect(sixth.body.error).toMatchObject({ code: 'login_throttled', message: locales.en.errors.login_throttled_other.replace('{{count}}', '15') });
    // Only that address is slowed down: the owner elsewhere is not locked out.
    await t.client().login(email, 'correct horse battery');
    t.clock.advance(15 * 60_000);
    await attacker.login(email, 'correct horse battery');
  });

  it('answers 429 on the mail endpoints per IP, and recovers after the window', async () => {
    const c = t.client();
    let last = 0;
    for (let i = 0; i < 11; i++) last = (await c.post('/api/reactivate.php', { email: `x${i}@example.org` })).status;
    expect(last).toBe(429);
    expect((await c.post('/api/password-reset.php', { email: 'x@example.org' })).status).toBe(429);
    t.clock.advance(61 * 60_000);
    expect((await c.post('/api/reactivate.php', { email: 'x@example.org' })).status).toBe(200);
  });

  it('deletes with password, offers reactivation for 14 days by mail, then purges', async () => {
    const { client, user, email } = await fresh('en', true);
    const other = t.client();
    await other.login(email, 'correct horse battery');
    const wrong = await client.delete('/api/user.php', { password: 'wrong', reason: 'too_expensive' });
    expect(wrong.body.error.code).toBe('password_wrong');
    expect((await client.delete('/api/user.php', { password: 'correct horse battery', reason: 'too_expensive' })).status).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ status: 'deleted', deleteReason: 'too_expensive' });
    expect(await t.database.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);
    expect((await t.client().post('/api/user.php', { email, password: 'correct horse battery' })).status).toBe(401);

    // The same answer for every valid address: no account enumeration.
    const r1 = await t.client().post('/api/reactivate.php', { email });
    const r2 = await t.client().post('/api/reactivate.php', { email: 'never.seen@example.org' });
    expect([r1.status, r1.body, r2.status, r2.body]).toEqual([200, { ok: true }, 200, { ok: true }]);
    expect((await t.client().post('/api/reactivate.php', { email: 'nope' })).status).toBe(400);
    const link = (await smtp.waitFor(email, (m) => m.text.includes('/api/reactivate.php'))).link('/api/reactivate.php');
    expect(smtp.to('never.seen@example.org')).toHaveLength(0);
    const visitor = t.client();
    const back = await follow(visitor, link);
    expect(back.headers.get('location')).toBe('/members?reactivated=1');
    expect((await visitor.get('/api/user.php')).body.user).toMatchObject({ id: user.id, status: 'active' });
    expect((await follow(t.client(), link)).headers.get('location')).toBe('/activate/error?reason=reactivation');

    // A photo with its files, to see them go.
    writeFileSync(join(t.photosDir, `p${user.id}.webp`), 'x');
    writeFileSync(join(t.photosDir, `p${user.id}_t.webp`), 'x');
    await t.database.db.insert(photos).values({ userId: user.id, filename: `p${user.id}.webp`, thumbFilename: `p${user.id}_t.webp`, width: 1, height: 1 });
    const partner = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, partner.user.id, 10, 'demo_grant', `g${partner.user.id}`));
    expect((await partner.client.post('/api/messages.php', { profile_id: user.id, text: 'still there?' }, { 'idempotency-key': 'purge-msg-0001' })).status).toBe(201);

    // Deleted again; after 14 days no link is sent and the purge removes personal data.
    expect((await visitor.delete('/api/user.php', { password: 'correct horse battery', reason: 'other' })).status).toBe(200);
    t.clock.advance(14 * 24 * HOUR + 1000);
    // The partner's message mail is sent after the request: let it arrive before counting.
    await t.services.events.settle();
    const before = smtp.mails.length;
    expect((await t.client().post('/api/reactivate.php', { email })).body).toEqual({ ok: true });
    expect(smtp.mails.length).toBe(before);
    expect(await t.services.lifecycle.purgeDeletedAccounts()).toBeGreaterThanOrEqual(1);
    const [purged] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(purged.email).toBe(`${user.id}@purged.invalid`);
    expect(await t.database.db.$count(profiles, eq(profiles.userId, user.id))).toBe(0);
    expect(await t.database.db.$count(photos, eq(photos.userId, user.id))).toBe(0);
    expect(await t.database.db.$count(accountTokens, eq(accountTokens.userId, user.id))).toBe(0);
    expect(existsSync(join(t.photosDir, `p${user.id}.webp`))).toBe(false);
    expect(existsSync(join(t.photosDir, `p${user.id}_t.webp`))).toBe(false);
    // Two idle weeks ended the partner's session too.
    await partner.client.login(partner.user.email, 'correct horse battery');
    expect((await partner.client.get('/api/chats.php')).body.chats).toEqual([]);
    // The ledger stays for the bookkeeping.
    expect(await t.database.db.$count(creditLedger, eq(creditLedger.userId, partner.user.id))).toBe(2);
    expect(await t.services.lifecycle.purgeDeletedAccounts()).toBe(0);
  });

  it('exports the member\'s own data as a JSON download', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, a.user.id, 20, 'demo_grant', `g${a.user.id}`));
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'export me' }, { 'idempotency-key': 'export-msg-01' });
    expect((await t.client().get('/api/export.php')).status).toBe(403);
    const res = await a.client.get('/api/export.php');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/);
    expect(res.body.account).toMatchObject({ id: a.user.id, email: a.user.email });
    expect(res.body.profile.name).toBe(a.user.profile.name);
    expect(res.body.likes.given).toEqual([expect.objectContaining({ profile_id: b.user.id })]);
    expect(res.body.messages).toEqual([expect.objectContaining({ text: 'export me', sender_id: a.user.id })]);
    expect(res.body.ledger.map((l: { reason: string }) => l.reason)).toEqual(['demo_grant', 'message']);
    expect(res.body.orders).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('argon2');
  });
});
