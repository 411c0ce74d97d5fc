import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberReports, moderationDecisions, photos, profiles, textReviews } from '../db/schema.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * The console's queue pages as a browser without JavaScript uses them: opening claims (a redirect to the opened item),
 * a second moderator sees who holds it and cannot take it, a decision asks first and only the confirmation decides,
 * and staff without the moderator role get 403.
 */
describe.each(DATABASE_KINDS)('the moderation queues\' pages without JavaScript on %s', (kind) => {
  let t: TestApp;
  let first: TestStaff;
  let second: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    first = await createStaff(t, { roles: ['moderator'], name: 'Mona Moderator' });
    second = await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId] });
  }, 300_000);
  afterAll(() => t.close());
  const { page, postForm, textOf } = pageRequests(() => t);


  it('claims on opening, shows the hold to another moderator, and decides only after the confirmation', async () => {
    const [reporter, target] = [await signUp(t), await signUp(t, { name: 'Queued' })];
    const { report } = await t.services.reports.report(reporter.actor, { profile_id: target.user.id, kind: 'profile', reason: 'scam', text: 'Asked me for money' });
    const mine = (await first.cookie()).cookie;
    const theirs = (await second.cookie()).cookie;

    const list = await page('/console/queues/reports', mine);
    expect(list.status).toBe(200);
    const html = await textOf(list);
    expect(html).toContain(`#${target.user.id}`);
    expect(html).toContain('Scam or asking for money');

    const opened = await postForm('/console/queues/reports', { intent: 'claim', id: String(report.id) }, mine);
    expect([opened.status, opened.headers.get('location')]).toEqual([302, `/console/queues/reports?open=${report.id}`]);
    const openedPage = await textOf(await page(`/console/queues/reports?open=${report.id}`, mine));
    expect(openedPage).toContain('data-testid="report-opened"');
    expect(openedPage).toContain('Asked me for money');
    // The reason's ground is preselected.
    expect(openedPage).toMatch(/<option value="terms_scam" selected/);

    // The other moderator sees the hold and cannot take it, nor open it by its address.
    const other = await textOf(await page(`/console/queues/reports?open=${report.id}`, theirs));
    expect(other).toContain('data-testid="held-by-other"');
    expect(other).toContain(`By staff member #${first.actor.staffId} until`);
    expect(other).not.toContain('data-testid="report-opened"');
    const taken = await postForm('/console/queues/reports', { intent: 'claim', id: String(report.id) }, theirs);
    expect(taken.status).toBe(400);
    expect(await textOf(taken)).toContain('Another moderator is working on this right now.');

    // The decision asks first: nothing changes until the confirmation.
    const fields = { intent: 'decide', id: String(report.id), action: 'ban', ground: 'terms_scam', facts: 'Asked two members for money.', member: String(target.user.id) };
    const asked = await postForm(`/console/queues/reports?open=${report.id}`, fields, mine);
    expect(asked.status).toBe(200);
    const askedHtml = await textOf(asked);
    expect(askedHtml).toContain(`Ban the member: member #${target.user.id}`);
    expect(askedHtml).toContain('name="confirm" value="1"');
    expect((await t.database.db.select().from(memberReports).where(eq(memberReports.id, report.id)))[0].status).toBe('open');
    const done = await postForm(`/console/queues/reports?open=${report.id}`, { ...fields, confirm: '1' }, mine);
    expect(done.status).toBe(200);
    expect(await textOf(done)).toContain('The statement of reasons');
    expect((await t.database.db.select().from(memberReports).where(eq(memberReports.id, report.id)))[0].status).toBe('actioned');
    const [decision] = await t.database.db.select().from(moderationDecisions).where(eq(moderationDecisions.reportId, report.id));
    expect(decision).toMatchObject({ restriction: 'banned', ground: 'terms_scam', staffId: first.actor.staffId, facts: 'Asked two members for money.' });
  });

  it('opens a new member\'s name from the texts queue, and removes it only after the confirmation', async () => {
    const target = await signUp(t, { name: 'Queued Nickname' });
    const [item] = await t.database.db.select().from(textReviews).where(eq(textReviews.memberId, target.user.id));
    const mine = (await first.cookie()).cookie;
    expect(await textOf(await page('/console/queues/texts', mine))).toContain('Queued Nickname');
    const opened = await postForm('/console/queues/texts', { intent: 'claim', id: String(item.id) }, mine);
    expect([opened.status, opened.headers.get('location')]).toEqual([302, `/console/queues/texts?open=${item.id}`]);
    const openedPage = await textOf(await page(`/console/queues/texts?open=${item.id}`, mine));
    expect(openedPage).toContain('data-testid="text-opened"');
    expect(openedPage).toContain('(new member)');
    const fields = { intent: 'decide', id: String(item.id), action: 'remove', ground: 'terms_hate', field: 'name', member: String(target.user.id), facts: '' };
    const asked = await textOf(await postForm(`/console/queues/texts?open=${item.id}`, fields, mine));
    expect(asked).toContain(`replaced by “#${target.user.id}”`);
    const name = async () => (await t.database.db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, target.user.id)))[0].name;
    expect(await name()).toBe('Queued Nickname');
    const done = await postForm(`/console/queues/texts?open=${item.id}`, { ...fields, confirm: '1' }, mine);
    expect(await textOf(done)).toContain('The statement of reasons');
    expect(await name()).toBe(`#${target.user.id}`);
  });

  it('opens a photo into the decision card and approves it only after the confirmation', async () => {
    const owner = await signUp(t);
    const [photo] = await t.database.db.insert(photos)
      .values({ userId: owner.user.id, filename: 'http-q.webp', thumbFilename: 'http-q_t.webp', width: 10, height: 10, createdAt: t.clock() }).returning();
    const mine = (await first.cookie()).cookie;
    const opened = await postForm('/console/queues/photos', { intent: 'claim', id: `profile-${photo.id}` }, mine);
    expect([opened.status, opened.headers.get('location')]).toEqual([302, `/console/queues/photos?open=profile-${photo.id}`]);
    const at = `/console/queues/photos?open=profile-${photo.id}`;
    expect(await textOf(await page(at, mine))).toContain('data-testid="photo-opened"');
    const fields = { intent: 'decide', kind: 'profile', id: String(photo.id), decision: 'approve', member: String(owner.user.id) };
    expect(await textOf(await postForm(at, fields, mine))).toContain(`The photo of member #${owner.user.id} is approved`);
    const status = async () => (await t.database.db.select().from(photos).where(eq(photos.id, photo.id)))[0].status;
    expect(await status()).toBe('pending');
    expect(await textOf(await postForm(at, { ...fields, confirm: '1' }, mine))).toContain('The photo was approved.');
    expect(await status()).toBe('active');
  });

  it('answers bad input with a message and changes nothing; staff without the role get 403 on every queue', async () => {
    const mine = (await first.cookie()).cookie;
    for (const [path, fields] of [
      ['/console/queues/reports', { intent: 'claim', id: 'x' }],
      ['/console/queues/reports', { intent: 'decide', id: '1', action: 'erase', ground: 'terms_general', member: '1' }],
      ['/console/queues/notices', { intent: 'claim', reference: '<script>' }],
      ['/console/queues/appeals', { intent: 'decide', id: '1', outcome: 'maybe', member: '1' }],
      ['/console/queues/photos', { kind: 'profile', id: '1', decision: 'burn', member: '1' }],
      ['/console/queues/texts', { intent: 'decide', id: '1', action: 'erase', ground: 'terms_general', field: 'name', member: '1' }],
      ['/console/queues/photos', { intent: 'claim', id: 'album-1' }],
    ] as const) {
      const res = await postForm(path, fields, mine);
      expect(res.status, path).toBe(400);
      expect(await textOf(res), path).toContain('Some of the information is not valid.');
    }
    // A notice's decision without the text the notifier reads says what is missing.
    const unwritten = await postForm('/console/queues/notices', { intent: 'decide', reference: 'ABCD-EFGH-JKMN', action: 'dismiss', ground: 'terms_general', decision: ' ' }, mine);
    expect(unwritten.status).toBe(400);
    expect(await textOf(unwritten)).toContain('Write the decision the notifier will read.');
    const support = (await (await createStaff(t, { roles: ['support'] })).cookie()).cookie;
    for (const queue of ['reports', 'notices', 'appeals', 'photos', 'texts']) expect((await page(`/console/queues/${queue}`, support)).status, queue).toBe(403);
    // /console/queues opens the reports.
    const root = await page('/console/queues', mine);
    expect([root.status, root.headers.get('location')]).toEqual([302, '/console/queues/reports']);
  });
});
