import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EMAIL_CATEGORIES, MARKETING_CATEGORIES } from '#common/notifications.ts';
import { mailEvents, photos, users } from '../db/schema.ts';
import { SYSTEM } from '../../tests/helpers/staff.ts';
import { addCredits } from '../credits/ledger.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtp } from '../../tests/helpers/smtp.ts';

const SECRET = 'webhook-secret-0123456789';

describe.each(DATABASE_KINDS)('e-mail notifications on %s', (kind) => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(kind, { profiles: 3, smtpUrl: smtp.url, env: { MAIL_WEBHOOK_SECRET: SECRET } });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
    await smtp.close();
  });

  const pair = async () => {
    const a = await signUp(t, { email: `a${Math.random().toString(36).slice(2, 9)}@example.org`, name: 'Alice' });
    const b = await signUp(t, { email: `b${Math.random().toString(36).slice(2, 9)}@example.org`, name: 'Bram' });
    await t.database.db.transaction((tx) => addCredits(tx, a.user.id, 50, 'demo_grant', `g${a.user.id}`));
    await t.services.events.settle();
    return { a, b };
  };

  it('lists the 8 categories, marketing off until the member opts in, and saves switches on the server', async () => {
    const { a } = await pair();
    const res = await a.client.get('/api/notifications.php');
    expect(Object.keys(res.body.email)).toEqual([...EMAIL_CATEGORIES]);
    expect(res.body.email).toEqual(Object.fromEntries(EMAIL_CATEGORIES.map((c) => [c, !(MARKETING_CATEGORIES as readonly string[]).includes(c)])));
    const put = await a.client.put('/api/notifications.php', { email: { newsletter: true, new_like: false }, invisible: true });
    expect(put.body).toMatchObject({ email: { newsletter: true, special_offers: false, new_like: false, new_message: true }, invisible: true });
    expect((await a.client.put('/api/notifications.php', { email: { nonsense: false } })).status).toBe(400);
    expect((await t.client().get('/api/notifications.php')).status).toBe(403);
  });

  it('mails new messages, likes and matches with List-Unsubscribe; one-click POST turns exactly that category off', async () => {
    const { a, b } = await pair();
    await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'hi Bram' }, { 'idempotency-key': 'notify-msg-001' });
    await t.services.events.settle();
    const mail = await smtp.waitFor(b.user.email, (m) => m.subject.includes('Alice'));
    expect(mail.subject).toBe('Alice sent you a message');
    expect(mail.link('/chats/')).toMatch(/\/chats\/\d+$/);
    const header = mail.header('list-unsubscribe');
    expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const url = header.match(/<(https?:[^>]+)>/)![1];
    expect(header).toMatch(/<mailto:support@example\.com\?subject=unsubscribe/);
    expect(url).toContain('c=new_message');
    expect(mail.text).toContain('New messages');

    // A tampered signature changes nothing.
    const u = new URL(url);
    const bad = await t.client().request('POST', `${u.pathname}${u.search.replace(/s=[^&]+/, 's=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')}`, undefined, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(bad.status).toBe(400);
    // The GET shows a button and changes nothing (link scanners open links).
    expect((await t.client().get(`${u.pathname}${u.search}`)).status).toBe(200);
    expect((await b.client.get('/api/notifications.php')).body.email.new_message).toBe(true);
    const one = await t.client().request('POST', `${u.pathname}${u.search}`, undefined, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(one.status).toBe(200);
    const after = (await b.client.get('/api/notifications.php')).body.email;
    expect(after.new_message).toBe(false);
    expect(Object.entries(after).filter(([, on]) => !on).map(([c]) => c)).toEqual(['new_message', ...MARKETING_CATEGORIES]);

    const count = smtp.to(b.user.email).length;
    await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'again' }, { 'idempotency-key': 'notify-msg-002' });
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await t.services.events.settle();
    const like = await smtp.waitFor(b.user.email, (m) => m.subject === 'Alice likes you');
    expect(smtp.to(b.user.email).length).toBe(count + 1);
    expect(like.link('/likes')).toMatch(/\/likes$/);
    await b.client.post('/api/like.php', { profile_id: a.user.id });
    await t.services.events.settle();
    expect((await smtp.waitFor(a.user.email, (m) => m.subject.includes('match'))).subject).toBe("It's a match with Bram!");
  });

  it('mails a gift in the gifts category: the Gifts switch stops it, the New messages switch does not', async () => {
    const { a, b } = await pair();
    const { gifts } = (await a.client.get('/api/gifts.php')).body;
    await b.client.put('/api/notifications.php', { email: { new_message: false } });
    expect((await a.client.post('/api/gift.php', { profile_id: b.user.id, gift_id: gifts[0].id }, { 'idempotency-key': 'notify-gift-001' })).status).toBe(201);
    await t.services.events.settle();
    const mail = await smtp.waitFor(b.user.email, (m) => m.subject.includes('Alice'));
    expect(mail.header('list-unsubscribe')).toContain('c=gift');

    const count = smtp.to(b.user.email).length;
    await b.client.put('/api/notifications.php', { email: { new_message: true, gift: false } });
    expect((await a.client.post('/api/gift.php', { profile_id: b.user.id, gift_id: gifts[0].id }, { 'idempotency-key': 'notify-gift-002' })).status).toBe(201);
    await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'did you like it?' }, { 'idempotency-key': 'notify-gift-003' });
    await t.services.events.settle();
    // Only the text message was mailed (so no rate limit held the gift back).
    const text = await smtp.waitFor(b.user.email, (m) => m.header('list-unsubscribe').includes('c=new_message'));
    expect(text.subject).toBe('Alice sent you a message');
    expect(smtp.to(b.user.email).length).toBe(count + 1);
  });

  it('mails a profile visit in the "Profile visits" category: once per visitor, never for invisible visitors, visitors without an account or one\'s own profile', async () => {
    const { a, b } = await pair();
    const visits = () => smtp.to(b.user.email).filter((m) => m.subject.endsWith('visited your profile'));
    expect((await a.client.get(`/api/profile.php?id=${b.user.id}`)).status).toBe(200);
    await t.services.events.settle();
    const mail = await smtp.waitFor(b.user.email, (m) => m.subject === 'Alice visited your profile');
    expect(mail.header('list-unsubscribe')).toContain('c=profile_visit');
    expect(mail.link('/members/')).toMatch(new RegExp(`/members/${a.user.id}$`));
    expect(mail.text).toContain('Profile visits');
    // The same visitor again is no news; nor are anonymous visits or one's own profile.
    await a.client.get(`/api/profile.php?id=${b.user.id}`);
    await t.client().get(`/api/profile.php?id=${b.user.id}`);
    await b.client.get(`/api/profile.php?id=${b.user.id}`);
    await t.services.events.settle();
    expect(visits().length).toBe(1);
    // An invisible member leaves no trace.
    const { a: hidden } = await pair();
    await hidden.client.put('/api/notifications.php', { invisible: true });
    await hidden.client.get(`/api/profile.php?id=${b.user.id}`);
    await t.services.events.settle();
    expect(visits().length).toBe(1);
    // Switched off: the visit happens, the mail does not.
    await b.client.put('/api/notifications.php', { email: { profile_visit: false } });
    const { a: other } = await pair();
    await other.client.get(`/api/profile.php?id=${b.user.id}`);
    await t.services.events.settle();
    expect(visits().length).toBe(1);
    expect(smtp.to(a.user.email).some((m) => m.subject.endsWith('visited your profile'))).toBe(false);
  });

  it('mails at most 3 profile visits a day to one member', async () => {
    const { b } = await pair();
    for (let i = 0; i < 4; i++) {
      const { a } = await pair();
      await a.client.get(`/api/profile.php?id=${b.user.id}`);
    }
    await t.services.events.settle();
    await smtp.waitFor(b.user.email, (m) => m.subject.endsWith('visited your profile'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(b.user.email).filter((m) => m.subject.endsWith('visited your profile')).length).toBe(3);
  });

  it('mails the photo check in the "Photo checks" category: approved or removed, once per decision, not when switched off', async () => {
    const { b } = await pair();
    const photo = async () => (await t.database.db.insert(photos).values({ userId: b.user.id, filename: `p${Math.random()}.webp`, thumbFilename: `t${Math.random()}.webp`, status: 'active', width: 600, height: 800 }).returning())[0].id;
    const first = await photo();
    await t.services.photos.moderate(SYSTEM, first, 'approve');
    await t.services.events.settle();
    const approved = await smtp.waitFor(b.user.email, (m) => m.subject === 'Your photo has been checked');
    expect(approved.header('list-unsubscribe')).toContain('c=photo_approved');
    expect(approved.text).toContain('/profile');
    // The same decision again tells nothing new; changing it does.
    await t.services.photos.moderate(SYSTEM, first, 'approve');
    await t.services.photos.moderate(SYSTEM, first, 'reject');
    await t.services.events.settle();
    await smtp.waitFor(b.user.email, (m) => m.subject === 'Your photo could not be approved');
    expect(smtp.to(b.user.email).filter((m) => m.subject.startsWith('Your photo')).length).toBe(2);
    // Switched off: the check happens, the mail does not.
    await b.client.put('/api/notifications.php', { email: { photo_approved: false } });
    await t.services.photos.moderate(SYSTEM, await photo(), 'approve');
    await t.services.events.settle();
    expect(smtp.to(b.user.email).filter((m) => m.subject.startsWith('Your photo')).length).toBe(2);
  });

  it('sends nothing to demo addresses, deleted accounts or members with mail stopped', async () => {
    const { a, b } = await pair();
    await t.database.db.update(users).set({ notificationsDisabled: ['bounce'] }).where(eq(users.id, b.user.id));
    expect(await t.services.notifications.sendCategoryMail(b.user.id, 'new_like', 'new_like', { other: 'x' }, '/likes')).toBe(false);
    await t.database.db.update(users).set({ notificationsDisabled: [], email: `ghost${b.user.id}@demo.amora.invalid` }).where(eq(users.id, b.user.id));
    expect(await t.services.notifications.sendCategoryMail(b.user.id, 'new_like', 'new_like', { other: 'x' }, '/likes')).toBe(false);
    await t.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, a.user.id));
    expect(await t.services.notifications.sendCategoryMail(a.user.id, 'new_like', 'new_like', { other: 'x' }, '/likes')).toBe(false);
  });

  it('records bounces and complaints with the shared secret; mail stops; the member sees why and re-enables', async () => {
    const { a, b } = await pair();
    const hook = (body: unknown, secret = SECRET) => t.client().post('/api/mail-events.php', body, { 'x-mail-webhook-secret': secret });
    expect((await hook({ email: b.user.email, type: 'bounce' }, 'wrong-secret-0123456789')).status).toBe(403);
    expect((await hook({ email: b.user.email, type: 'nonsense' })).status).toBe(400);
    expect((await hook({ email: b.user.email.toUpperCase(), type: 'bounce', detail: '550 mailbox unavailable' })).body).toEqual({ ok: true, accounts: 1 });
    expect((await hook({ email: b.user.email, type: 'complaint' })).status).toBe(200);
    expect((await hook({ email: b.user.email, type: 'bounce' })).status).toBe(200);
    expect(await t.database.db.$count(mailEvents, eq(mailEvents.email, b.user.email))).toBe(3);
    const settings = (await b.client.get('/api/notifications.php')).body;
    expect(settings.notifications_disabled.sort()).toEqual(['bounce', 'spam_complaint']);
    expect((await b.client.get('/api/user.php')).body.user.notifications_disabled.sort()).toEqual(['bounce', 'spam_complaint']);
    const before = smtp.to(b.user.email).length;
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await t.services.events.settle();
    expect(smtp.to(b.user.email).length).toBe(before);
    expect((await b.client.delete('/api/notifications-disabled.php', { reason: 'bounce' })).body.notifications_disabled).toEqual(['spam_complaint']);
    expect((await b.client.delete('/api/notifications-disabled.php', { reason: 'spam_complaint' })).body.notifications_disabled).toEqual([]);
    expect(await t.services.notifications.sendCategoryMail(b.user.id, 'new_like', 'new_like', { other: 'Alice' }, '/likes')).toBe(true);
  });

  it('answers 404 on the webhook when no secret is configured', async () => {
    const other = await createTestApp(kind, { profiles: 0 });
    try {
      expect((await other.client().post('/api/mail-events.php', { email: 'x@example.org', type: 'bounce' })).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('keeps invisible members out of the likes lists of others; pausing makes invisible and stops mail', async () => {
    const { a, b } = await pair();
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await b.client.post('/api/like.php', { profile_id: a.user.id });
    expect((await b.client.get('/api/likes.php')).body.liked_by.map((p: { id: number }) => p.id)).toContain(a.user.id);
    await a.client.post('/api/account-pause.php');
    const paused = (await a.client.get('/api/notifications.php')).body;
    expect(paused.invisible).toBe(true);
    expect(Object.values(paused.email).some(Boolean)).toBe(false);
    const likes = (await b.client.get('/api/likes.php')).body;
    expect(likes.liked_by.map((p: { id: number }) => p.id)).not.toContain(a.user.id);
    expect(likes.profiles.map((p: { id: number }) => p.id)).not.toContain(a.user.id);
    expect((await b.client.get('/api/user.php')).body.user.num_new_likes).toBe(0);
    // The invisible member still sees their own lists.
    expect((await a.client.get('/api/likes.php')).body.liked_by.map((p: { id: number }) => p.id)).toContain(b.user.id);
  });
});
