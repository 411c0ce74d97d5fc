import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_REFERENCE, noticeSchema, type NoticeInput } from '#common/notices.ts';
import { addCredits } from '../credits/ledger.ts';
import { auditLog, notices, photos, users } from '../db/schema.ts';
import { createTranslator } from '../i18n/i18n.ts';
import type { OutgoingMail } from '../infra/mail/transport.ts';
import type { RequestContext } from '../http/context.ts';
import { submitForm } from '../http/forms.server.ts';
import { addOtherSite } from '../../tests/helpers/other-site.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import type { NoticeActor } from './notices.service.ts';
import { createStaff } from '../../tests/helpers/staff.ts';

describe.each(DATABASE_KINDS)('notice and action on %s', (kind) => {
  let t: TestApp;
  let otherSiteUserId: number;
  let otherSiteId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3 });
    ({ siteId: otherSiteId, userId: otherSiteUserId } = await addOtherSite(t.database.db));
  });
  afterAll(() => t.close());

  const sent = () => (t.services.mail.mailer as unknown as { sent: OutgoingMail[] }).sent;
  const count = () => t.database.db.$count(notices);
  let ips = 0;
  const visitor = (over: Partial<NoticeActor> = {}): NoticeActor => ({ siteId: t.siteId, userId: null, ip: `198.51.100.${++ips}`, lang: 'en', ...over });
  let emails = 0;
  // What the page action hands the use case: the form's values after the shared schema.
  const input = (over: Partial<NoticeInput> = {}): NoticeInput => noticeSchema.parse({
    kind: 'profile', content: String(t.demoUserId), reason: 'illegal', explanation: 'This profile offers illegal services for money.',
    name: 'Rita Reporter', email: `reporter${++emails}@example.org`, bona_fide: true, ...over,
  });
  const refusal = (work: Promise<unknown>) => work.then(() => null, (e: { status: number; code: string; details: Record<string, string> }) => ({ status: e.status, code: e.code, details: e.details }));

  it('stores a visitor\'s notice and mails its reference with a link to the follow page', async () => {
    const before = sent().length;
    const { reference, email } = await t.services.notices.submit(visitor({ lang: 'de' }), input({ email: 'Visitor@Example.org' }));
    expect(reference).toMatch(NOTICE_REFERENCE);
    expect(email).toBe('visitor@example.org');
    const [row] = await t.database.db.select().from(notices).where(eq(notices.reference, reference));
    expect(row).toMatchObject({
      siteId: t.siteId, kind: 'profile', contentRef: String(t.demoUserId), reason: 'illegal', reporterName: 'Rita Reporter',
      reporterEmail: 'visitor@example.org', reporterUserId: null, language: 'de', bonaFide: true, status: 'received', decision: null, decidedAt: null,
    });
    await t.services.events.settle();
    const mails = sent().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('visitor@example.org');
    expect(mails[0].subject).toContain(reference);
    expect(mails[0].subject).toContain('Meldung');
    expect(mails[0].text).toContain(`/complaints/${reference}?token=${row.followToken}`);
    // The follow link opens the notice; nothing else does.
    expect(await t.services.notices.follow(t.siteId, reference, row.followToken)).toMatchObject({ reference, status: 'received', decision: null });
  });

  it('takes a signed-in member\'s notice under their account\'s address, also about a message of their own conversation', async () => {
    const a = await signUp(t, { name: 'Anna' });
    const b = await signUp(t, { name: 'Bert' });
    await t.database.db.transaction((tx) => addCredits(tx, b.user.id, 100, 'demo_grant', `notice-grant-${b.user.id}`));
    const res = await b.client.post('/api/messages.php', { profile_id: a.user.id, text: 'Send me your bank details' }, { 'idempotency-key': `notice-msg-${b.user.id}-1` });
    expect(res.status).toBe(201);
    const messageId = String(res.body.message.id);
    const { reference, email } = await t.services.notices.submit(
      visitor({ userId: a.user.id }), input({ kind: 'message', content: messageId, reason: 'fake_or_scam', explanation: '', email: 'someone-else@example.org' }),
    );
    expect(email).toBe(a.user.email);
    const [row] = await t.database.db.select().from(notices).where(eq(notices.reference, reference));
    expect(row).toMatchObject({ kind: 'message', contentRef: messageId, reporterUserId: a.user.id, reporterEmail: a.user.email, explanation: '' });

    // A third member, and a visitor, cannot report a message of a conversation they are not part of.
    const c = await signUp(t, { name: 'Carl' });
    const before = await count();
    expect(await refusal(t.services.notices.submit(visitor({ userId: c.user.id }), input({ kind: 'message', content: messageId }))))
      .toEqual({ status: 400, code: 'notice_content_not_found', details: { content: 'errors.notice_content_not_found' } });
    expect(await refusal(t.services.notices.submit(visitor(), input({ kind: 'message', content: messageId }))))
      .toMatchObject({ status: 400, code: 'notice_message_login', details: { content: 'errors.notice_message_login' } });
    expect(await count()).toBe(before);
  });

  it('refuses content that does not exist on this site, beside the content field, and stores nothing', async () => {
    // Mail of the tests before this one is out first, so the count below is this test's own.
    await t.services.events.settle();
    const before = await count();
    const mailsBefore = sent().length;
    for (const wrong of [
      input({ content: '2147483000' }),
      input({ content: String(otherSiteUserId) }),
      input({ kind: 'photo', content: '2147483000' }),
    ]) {
      expect(await refusal(t.services.notices.submit(visitor(), wrong))).toMatchObject({ status: 400, details: { content: 'errors.notice_content_not_found' } });
    }
    // A photo of this site can be reported.
    const [photo] = await t.database.db.select({ id: photos.id }).from(photos).innerJoin(users, eq(users.id, photos.userId)).where(eq(users.siteId, t.siteId)).limit(1);
    expect(photo).toBeDefined();
    await t.services.notices.submit(visitor(), input({ kind: 'photo', content: String(photo.id), reason: 'intellectual_property' }));
    expect(await count()).toBe(before + 1);
    await t.services.events.settle();
    expect(sent().length).toBe(mailsBefore + 1);
  });

  it('answers the form with translated field errors and stores nothing for a wrong id (page action)', async () => {
    const translator = await createTranslator();
    const ctx = { translator, lang: 'nl', clientIp: '203.0.113.9' } as unknown as RequestContext;
    const form = (entries: Record<string, string>) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(entries)) data.append(k, v);
      return data;
    };
    const fields = { kind: 'profile', content: String(otherSiteUserId), reason: 'harassment', explanation: 'Threatening messages every day.', name: 'Rita', email: 'rita@example.org', bona_fide: 'on' };
    const before = await count();
    const run = (values: Record<string, string>) => submitForm(ctx, form(values), noticeSchema, (value) => t.services.notices.submit(visitor({ lang: 'nl' }), value));
    const notFound = await run(fields);
    if (notFound instanceof Response) throw new Error('unexpected redirect');
    expect(notFound.init?.status).toBe(400);
    expect(notFound.data.result.error?.content).toEqual([translator.t('nl', 'errors.notice_content_not_found')]);

    // The schema's own rules: an id for a profile, an explanation for harassment, the good-faith box, a name.
    const bad = await run({ ...fields, content: '12abc', explanation: 'short', bona_fide: '', name: '' });
    if (bad instanceof Response) throw new Error('unexpected redirect');
    expect(bad.data.result.error).toMatchObject({
      content: [translator.t('nl', 'errors.notice_content_id_invalid')],
      explanation: [translator.t('nl', 'errors.notice_explanation_required')],
      bona_fide: [translator.t('nl', 'errors.notice_bona_fide_required')],
      name: [translator.t('nl', 'errors.notice_name_required')],
    });
    expect(await count()).toBe(before);

    // A minor on the site: no explanation and no name needed (DSA Art. 16(2)(c)); the box still is.
    const minor = noticeSchema.safeParse({ ...fields, content: String(t.demoUserId), reason: 'minor', explanation: '', name: '', bona_fide: true });
    expect(minor.success).toBe(true);
    expect(noticeSchema.safeParse({ ...fields, kind: 'other', content: 'https://example.org/somewhere', bona_fide: true }).success).toBe(true);
  });

  it('limits notices per reporter and per client address', async () => {
    const email = 'busy@example.org';
    for (let i = 0; i < 5; i++) await t.services.notices.submit(visitor(), input({ email }));
    const before = await count();
    expect(await refusal(t.services.notices.submit(visitor(), input({ email })))).toMatchObject({ status: 429, code: 'too_many_requests' });
    // From one address, ten an hour whatever the e-mail address says.
    const ip = '192.0.2.200';
    for (let i = 0; i < 10; i++) await t.services.notices.submit(visitor({ ip }), input());
    expect(await refusal(t.services.notices.submit(visitor({ ip }), input()))).toMatchObject({ status: 429 });
    expect(await count()).toBe(before + 10);
    // A member is counted by account: another address does not help.
    const m = await signUp(t, { name: 'Mara' });
    for (let i = 0; i < 5; i++) await t.services.notices.submit(visitor({ userId: m.user.id }), input());
    expect(await refusal(t.services.notices.submit(visitor({ userId: m.user.id }), input()))).toMatchObject({ status: 429 });
    t.clock.advance(25 * 3_600_000);
    await t.services.notices.submit(visitor({ userId: m.user.id }), input());
  });

  it('opens the follow page only with the right token, on the right site', async () => {
    const { reference } = await t.services.notices.submit(visitor(), input());
    const [row] = await t.database.db.select().from(notices).where(eq(notices.reference, reference));
    const wrongToken = `${row.followToken.slice(0, -1)}${row.followToken.endsWith('A') ? 'B' : 'A'}`;
    for (const [site, ref, token] of [
      [t.siteId, reference, wrongToken], [t.siteId, reference, undefined], [t.siteId, reference, 'short'],
      [t.siteId, 'AAAA-AAAA-AAAA', row.followToken], [t.siteId + 1, reference, row.followToken], [t.siteId, `${reference}'--`, row.followToken],
    ] as const) {
      expect(await refusal(t.services.notices.follow(site, ref, token))).toMatchObject({ status: 404 });
    }
  });

  it('moves a notice to review, decides it once and mails the reporter the outcome', async () => {
    const mod = (await createStaff(t, { roles: ['moderator'] })).actor;
    const elsewhere = (await createStaff(t, { roles: ['moderator'], siteIds: [otherSiteId] })).actor;
    const support = (await createStaff(t, { roles: ['support'] })).actor;
    const { reference } = await t.services.notices.submit(visitor({ lang: 'fr' }), input({ email: 'outcome@example.org' }));
    await t.services.events.settle();
    const [row] = await t.database.db.select().from(notices).where(eq(notices.reference, reference));
    t.clock.advance(60_000);
    // A moderator of another site, or staff without the role, do not find it.
    expect(await refusal(t.services.notices.review(elsewhere, reference))).toMatchObject({ status: 404 });
    expect(await refusal(t.services.notices.decide(support, reference, 'removed', 'Gone'))).toMatchObject({ status: 404 });
    expect((await t.services.notices.review(mod, reference)).status).toBe('in_review');
    expect(await refusal(t.services.notices.review(mod, reference))).toMatchObject({ status: 409, code: 'notice_already_in_review' });
    expect(await refusal(t.services.notices.decide(mod, reference, 'removed', '   '))).toMatchObject({ status: 400, code: 'notice_decision_required' });

    const before = sent().length;
    t.clock.advance(60_000);
    const decided = await t.services.notices.decide(mod, reference, 'removed', 'The profile offered paid services, which our terms forbid.');
    expect(decided).toMatchObject({ status: 'removed', decision: 'The profile offered paid services, which our terms forbid.', decided_at: t.clock().toISOString() });
    await t.services.events.settle();
    const mails = sent().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('outcome@example.org');
    expect(mails[0].subject).toBe(`Votre signalement ${reference} : contenu retiré`);
    expect(mails[0].text).toContain('The profile offered paid services');
    expect(mails[0].text).toContain(`/complaints/${reference}?token=${row.followToken}`);
    expect(await t.services.notices.follow(t.siteId, reference, row.followToken)).toMatchObject({ status: 'removed', decided_at: t.clock().toISOString() });

    // Decided once: a second decision changes nothing and mails nothing.
    expect(await refusal(t.services.notices.decide(mod, reference, 'no_action', 'Changed my mind'))).toMatchObject({ status: 409, code: 'notice_already_decided' });
    expect(await refusal(t.services.notices.decide(mod, 'ZZZZ-ZZZZ-ZZZZ', 'no_action', 'x'))).toMatchObject({ status: 404 });
    await t.services.events.settle();
    expect(sent().length).toBe(before + 1);
    // Each step that changed something wrote one audit row naming the moderator.
    const rows = await t.database.db.select().from(auditLog).where(and(eq(auditLog.objectType, 'notice'), eq(auditLog.objectId, String(row.id))));
    expect(rows.map((r) => [r.action, r.staffId])).toEqual([['notice.review', mod.staffId], ['notice.decide', mod.staffId]]);
    const [after] = await t.database.db.select().from(notices).where(eq(notices.reference, reference));
    expect(after).toMatchObject({ status: 'removed', decision: 'The profile offered paid services, which our terms forbid.' });
  });
});
