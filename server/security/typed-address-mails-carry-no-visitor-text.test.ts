import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { noticeSchema } from '#common/notices.ts';
import { users } from '../db/schema.ts';
import type { RequestContext } from '../http/context.ts';
import { submitForm } from '../http/forms.server.ts';
import { createTranslator } from '../i18n/i18n.ts';
import type { OutgoingMail } from '../infra/mail/transport.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { createStaff } from '../../tests/helpers/staff.ts';

const PASSWORD = 'correct horse battery';
/** What a phisher types as a name and as a message: none of it may reach a mailbox through us. */
const NAME = 'Claim your prize at evil.example';
const MESSAGE = 'Your bank account is locked: call +1 555 0100 now';
const TRACES = ['evil.example', 'Claim your prize', '555 0100', 'bank account'];

/**
 * Anyone can make the site mail an address they type: signing up, a password reset, reactivation, an e-mail
 * change, a notice (POST /complaints). Such an address may be a stranger's, so those mails carry no text the
 * visitor wrote, names included: the site's words, its reference and its link only. Other members' names reach
 * only confirmed addresses.
 */
describe.each(DATABASE_KINDS)('mails to an address a visitor typed carry nothing the visitor wrote (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2 });
  });
  afterAll(() => t.close());

  let n = 0;
  const address = (what: string) => `${what}.${++n}.${Date.now()}@victim.example`;
  const sent = () => (t.services.mail.mailer as unknown as { sent: OutgoingMail[] }).sent;
  /** The mails that reached `to` (after the outbox has delivered what is due). */
  const mailsTo = async (to: string) => {
    await t.services.events.settle();
    return sent().filter((m) => m.to === to);
  };
  const expectClean = (mail: OutgoingMail, label: string, extra: string[] = []) => {
    const whole = [mail.subject, mail.text, mail.html, ...Object.values(mail.headers ?? {})].join('\n');
    for (const trace of [...TRACES, ...extra]) expect(whole, `${label}: ${trace}`).not.toContain(trace);
    // The greeting names nobody.
    expect(mail.text.split('\n')[0], label).toBe('Hello,');
  };
  const only = async (to: string, kind: string) => {
    const mails = (await mailsTo(to)).filter((m) => m.kind === kind);
    expect(mails.length, `${kind} to ${to}`).toBeGreaterThan(0);
    return mails.at(-1)!;
  };

  it('sign-up with a hostile name and first message: the activation mail, also sent again, has neither', async () => {
    const to = address('signup');
    const client = t.client();
    const res = await client.post('/api/signup.php', {
      email: to, name: NAME, password: PASSWORD, date_of_birth: '1990-04-12', gender: 'male', country: 'NL',
      profile_id: t.demoUserId, signup_message: MESSAGE,
    });
    expect(res.status).toBe(201);
    expectClean(await only(to, 'activation'), 'activation');
    expect((await client.post('/api/activation-mail.php', {})).status).toBe(200);
    expect((await mailsTo(to)).filter((m) => m.kind === 'activation')).toHaveLength(2);
    for (const mail of await mailsTo(to)) expectClean(mail, mail.kind);
  });

  it('a password reset and a reactivation link for an account made with a hostile name carry no name', async () => {
    const to = address('reset');
    const client = t.client();
    expect((await client.post('/api/signup.php', { email: to, name: NAME, password: PASSWORD, date_of_birth: '1990-04-12', gender: 'male', country: 'NL' })).status).toBe(201);
    expect((await t.client().post('/api/password-reset.php', { email: to })).status).toBe(200);
    expectClean(await only(to, 'password_reset'), 'password_reset');
    expect((await client.delete('/api/user.php', { password: PASSWORD, reason: 'other' })).status).toBe(200);
    expect((await t.client().post('/api/reactivate.php', { email: to })).status).toBe(200);
    expectClean(await only(to, 'reactivation'), 'reactivation');
  });

  it('an e-mail change to a typed address carries neither the name nor that address in its text', async () => {
    const { client } = await signUp(t, { name: NAME });
    const to = address('change');
    expect((await client.post('/api/mail-change.php', { email: to, password: PASSWORD })).status).toBe(200);
    expectClean(await only(to, 'email_change'), 'email_change', [to]);
  });

  it('a notice (POST /complaints) with a hostile name and text: the reference mail and the outcome mail have neither', async () => {
    const translator = await createTranslator();
    const ctx = { translator, lang: 'en', clientIp: '203.0.113.20' } as unknown as RequestContext;
    const to = address('notice');
    const form = new FormData();
    for (const [k, v] of Object.entries({ kind: 'other', content: 'https://evil.example/claim', reason: 'fake_or_scam', explanation: MESSAGE, name: NAME, email: to, bona_fide: 'on' })) form.append(k, v);
    // The page action of POST /complaints, as the route module runs it.
    const result = await submitForm(ctx, form, noticeSchema, (input) => t.services.notices.submit({ siteId: t.siteId, userId: null, ip: '203.0.113.20', lang: 'en' }, input));
    expect(result instanceof Response ? result.status : result.init?.status).not.toBe(400);
    const received = await only(to, 'notice_received');
    expectClean(received, 'notice_received');
    const reference = /[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/.exec(received.subject)![0];
    expect(received.text).toContain(reference);
    await t.services.notices.decide((await createStaff(t, { roles: ['moderator'] })).actor, reference, 'no_action', 'The content breaks none of our rules.');
    const outcome = await only(to, 'notice_no_action');
    expectClean(outcome, 'notice_no_action');
    expect(outcome.text).toContain('The content breaks none of our rules.');
  });

  it('an address nobody confirmed gets no mail naming another member; a confirmed one does', async () => {
    const unconfirmed = await signUp(t, { email: address('unconfirmed') }, { confirmed: false });
    const confirmed = await signUp(t);
    const phisher = await signUp(t, { name: NAME });
    for (const target of [unconfirmed, confirmed]) {
      expect((await phisher.client.post('/api/like.php', { profile_id: target.user.id })).status).toBe(200);
      expect((await phisher.client.get(`/api/profile.php?id=${target.user.id}`)).status).toBe(200);
    }
    const notifications = async (to: string) => (await mailsTo(to)).filter((m) => m.kind !== 'activation');
    // Only its own activation mail (which names nobody) reaches the unconfirmed address.
    expect(await notifications(unconfirmed.user.email)).toEqual([]);
    // A member who confirmed their address is told who liked them, as before.
    const liked = (await mailsTo(confirmed.user.email)).find((m) => m.kind === 'new_like');
    expect(liked?.subject).toBe(`${NAME} likes you`);
    // Once confirmed, the other member's likes reach them.
    await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, unconfirmed.user.id));
    const other = await signUp(t);
    expect((await other.client.post('/api/like.php', { profile_id: unconfirmed.user.id })).status).toBe(200);
    expect((await notifications(unconfirmed.user.email)).map((m) => m.kind)).toEqual(['new_like']);
  });

  it('the mail service refuses to put a name into such a mail', async () => {
    await expect(t.services.mail.send({ to: address('guard'), lang: 'en', siteId: t.siteId, kind: 'activation', params: { name: NAME }, link: '/api/activate.php?token=x' }))
      .rejects.toThrow(/must not carry name/);
    await expect(t.services.mail.send({ to: address('guard'), lang: 'en', siteId: t.siteId, kind: 'notice_received', params: { reference: 'AAAA-BBBB-CCCC', explanation: MESSAGE }, link: '/complaints' }))
      .rejects.toThrow(/must not carry explanation/);
  });
});
