import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { messages, profiles } from '../db/schema.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * The answering workspace and the fictional profiles' form as a browser without JavaScript posts them
 * (server/http/console-answering.server.ts, console-fictional-profiles.server.ts): refused to moderators, bad input
 * answered 400 changing nothing, an answer only from the staff member who holds the conversation.
 */
describe.each(DATABASE_KINDS)('the fictional profiles\' console pages on %s', (kind) => {
  let t: TestApp;
  /** Support of the test's site, and a moderator of every site (who has no business here). */
  let [support, moderator]: TestStaff[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    [support, moderator] = await Promise.all([createStaff(t, { roles: ['support'], siteIds: [t.siteId] }), createStaff(t, { roles: ['moderator'] })]);
  }, 300_000);
  afterAll(() => t.close());
  const { page, postForm, textOf } = pageRequests(() => t);

  it('claims, refuses empty or unclaimed answers, and sends the held one', async () => {
    const fictional = await signUp(t, { name: 'Fleur' });
    await t.database.db.update(profiles).set({ fictional: true }).where(eq(profiles.userId, fictional.user.id));
    const member = await signUp(t, { name: 'Mats' });
    await t.database.db.transaction((tx) => addCredits(tx, member.user.id, 50, 'demo_grant', `grant-http-${kind}`));
    const sent = await member.client.post('/api/messages.php', { profile_id: fictional.user.id, text: 'Hoi Fleur' }, { 'idempotency-key': `http-${kind}-first-message` });
    const conversation = String(sent.body.message.conversation_id);
    const count = async () => (await t.database.db.select().from(messages).where(eq(messages.conversationId, Number(conversation)))).length;
    const cookie = (await support.cookie()).cookie;
    const mod = (await moderator.cookie()).cookie;

    expect((await page('/console/fictional')).status).toBe(302);
    expect((await page('/console/fictional', mod)).status).toBe(403);
    expect(await textOf(await page('/console/fictional', cookie))).toContain('Fleur');

    const answer = { intent: 'answer', id: conversation, text: 'Hoi Mats!', key: `http-${kind}-answer-key-0001` };
    const unclaimed = await postForm('/console/fictional', answer, cookie);
    expect(unclaimed.status).toBe(409);
    expect(await textOf(unclaimed)).toContain('Open the conversation first');
    expect((await postForm('/console/fictional', { intent: 'claim', id: conversation }, mod)).status).toBe(403);
    for (const bad of [{ intent: 'claim', id: 'x' }, { intent: 'shout', id: conversation }]) {
      expect((await postForm('/console/fictional', bad, cookie)).status).toBe(400);
    }
    const claimed = await postForm('/console/fictional', { intent: 'claim', id: conversation }, cookie);
    expect(claimed.status).toBe(302);
    expect(claimed.headers.get('location')).toBe(`/console/fictional?open=${conversation}`);
    const opened = await textOf(await page(`/console/fictional?open=${conversation}`, cookie));
    expect(opened).toContain('data-testid="answering-opened"');
    expect(opened).toContain('Hoi Fleur');

    expect((await postForm('/console/fictional', { ...answer, text: '   ' }, cookie)).status).toBe(400);
    expect(await count()).toBe(1);
    const done = await postForm('/console/fictional', answer, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`/console/fictional?open=${conversation}&sent=1`);
    expect(await count()).toBe(2);
  });

  it('creates a fictional profile from the form; bad fields are named and nothing is made; moderators are refused', async () => {
    const fictionalCount = async () => (await t.database.db.select().from(profiles).where(eq(profiles.fictional, true))).length;
    const cookie = (await support.cookie()).cookie;
    const path = `/console/fictional/profiles/new?site=${t.siteId}`;
    const fields = { intent: 'save', name: 'Saskia', birth_date: '1991-05-05', gender: 'female', looking_for: 'male', country: 'NL', about: 'Hello' };
    const before = await fictionalCount();
    const bad = await postForm(path, { ...fields, birth_date: '2015-05-05' }, cookie);
    expect(bad.status).toBe(400);
    expect(await textOf(bad)).toContain('id="fp-birth-error"');
    expect((await postForm(path, fields, (await moderator.cookie()).cookie)).status).toBe(403);
    expect(await fictionalCount()).toBe(before);
    const made = await postForm(path, fields, cookie);
    expect(made.status).toBe(302);
    expect(made.headers.get('location')).toMatch(/^\/console\/fictional\/profiles\/\d+\?saved=1$/);
    expect(await fictionalCount()).toBe(before + 1);
    expect(await textOf(await page(`/console/fictional/profiles?site=${t.siteId}`, cookie))).toContain('Saskia');
  });
});
