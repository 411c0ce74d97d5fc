import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '#common/live.ts';
import type { StaffActor } from '../actor.ts';
import { addCredits } from '../credits/ledger.ts';
import { auditLog, conversations, fictionalNotes, messages, profiles, sites, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('answering as a fictional profile on %s', (kind) => {
  let t: TestApp;
  let agent: StaffActor;
  let other: StaffActor;
  let keys = 0;
  const key = () => `answering-key-${kind}-${++keys}-padding`;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, freeMessages: 5 });
    const a = await t.services.staff.create({ kind: 'system', job: 'test' }, { email: `answer-a-${kind}@example.org`, name: 'Agent A', roles: ['support'] });
    const b = await t.services.staff.create({ kind: 'system', job: 'test' }, { email: `answer-b-${kind}@example.org`, name: 'Agent B', roles: ['support'] });
    agent = { kind: 'staff', staffId: a.id, roles: ['support'], siteIds: [t.siteId], companyIds: null };
    other = { kind: 'staff', staffId: b.id, roles: ['support'], siteIds: [t.siteId], companyIds: null };
  });
  afterAll(() => t.close());

  /** A member and a fictional profile of the test site, the member having written `text` to it. */
  async function waiting(text = 'Hello, are you there?') {
    const fictional = await signUp(t, { name: 'Fiona' });
    await t.database.db.update(profiles).set({ fictional: true }).where(eq(profiles.userId, fictional.user.id));
    const member = await signUp(t, { name: 'Marcel' });
    await t.database.db.transaction((tx) => addCredits(tx, member.user.id, 50, 'demo_grant', `grant-${kind}-${member.user.id}`));
    const sent = await member.client.post('/api/messages.php', { profile_id: fictional.user.id, text }, { 'idempotency-key': key() });
    expect(sent.status).toBe(201);
    return { fictional, member, conversationId: sent.body.message.conversation_id as number };
  }

  it('lists waiting conversations oldest first; a claim holds one for one staff member; the answer reaches the member live and never names the staff', async () => {
    const first = await waiting('First one');
    t.clock.advance(60_000);
    const second = await waiting('Second one');
    const queue = await t.services.answering.queue(agent);
    const ids = queue.items.map((i) => i.conversation_id);
    expect(ids.indexOf(first.conversationId)).toBeLessThan(ids.indexOf(second.conversationId));
    expect(queue.items.find((i) => i.conversation_id === first.conversationId)).toMatchObject({
      fictional_id: first.fictional.user.id, member_id: first.member.user.id, member_name: 'Marcel', claimed_by: null,
    });

    // Not claimed: neither opened nor answered.
    await expect(t.services.answering.conversation(agent, first.conversationId)).rejects.toMatchObject({ status: 409 });
    await expect(t.services.answering.answer(agent, first.conversationId, { text: 'Hi!', idempotencyKey: key() })).rejects.toMatchObject({ status: 409, code: 'answer_not_claimed' });

    await t.services.answering.claim(agent, first.conversationId, { ip: '198.51.100.9' });
    // The second staff member cannot take it over while it is held, nor answer it.
    await expect(t.services.answering.claim(other, first.conversationId)).rejects.toMatchObject({ status: 409, code: 'answer_claimed' });
    await expect(t.services.answering.answer(other, first.conversationId, { text: 'Me too', idempotencyKey: key() })).rejects.toMatchObject({ status: 409 });
    expect((await t.services.answering.queue(other)).items.find((i) => i.conversation_id === first.conversationId)?.claimed_by).toBe(agent.staffId);

    await t.database.db.update(sites).set({ visibleProfileNotes: true }).where(eq(sites.id, t.siteId));
    await t.database.db.insert(fictionalNotes).values({ userId: first.fictional.user.id, notes: 'Likes sailing; has a cat called Mo.', updatedAt: t.clock() });
    const opened = await t.services.answering.conversation(agent, first.conversationId);
    expect(opened.fictional).toMatchObject({ id: first.fictional.user.id, name: 'Fiona', notes: 'Likes sailing; has a cat called Mo.' });
    expect(opened.member).toMatchObject({ id: first.member.user.id, name: 'Marcel' });
    expect(opened.messages).toEqual([expect.objectContaining({ from_fictional: false, text: 'First one', answered_by: null })]);

    const live: LiveEvent[] = [];
    const off = await t.services.live.subscribe(first.member.user.id, (e) => live.push(e));
    const answerKey = key();
    const answered = await t.services.answering.answer(agent, first.conversationId, { text: 'Hi Marcel, nice to meet you', idempotencyKey: answerKey }, { ip: '198.51.100.9' });
    // A retried form sends nothing twice.
    expect(await t.services.answering.answer(agent, first.conversationId, { text: 'Hi Marcel, nice to meet you', idempotencyKey: answerKey })).toEqual({ ...answered, duplicate: true });
    await t.services.events.settle();
    off();
    expect(live).toContainEqual(expect.objectContaining({ type: 'message', conversation_id: first.conversationId }));

    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, answered.message_id));
    expect(row).toMatchObject({ senderId: first.fictional.user.id, answeredBy: agent.staffId, creditsSpent: 0, body: 'Hi Marcel, nice to meet you' });
    const [audit] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'fictional.answer'), eq(auditLog.objectId, String(answered.message_id))));
    expect(audit).toMatchObject({ staffId: agent.staffId, memberId: first.member.user.id, role: 'support', ip: '198.51.100.9' });

    // The member reads the answer with nothing that says who wrote it.
    const read = await first.member.client.get(`/api/messages.php?profile=${first.fictional.user.id}`);
    expect(read.body.messages.map((m: { text: string }) => m.text)).toEqual(['First one', 'Hi Marcel, nice to meet you']);
    expect(JSON.stringify(read.body)).not.toMatch(/answered|staff/i);
    const chats = await first.member.client.get('/api/chats.php');
    expect(JSON.stringify(chats.body)).not.toMatch(/answered|staff/i);

    // Answered, it leaves the queue; the other one stays.
    const after = (await t.services.answering.queue(agent)).items.map((i) => i.conversation_id);
    expect(after).not.toContain(first.conversationId);
    expect(after).toContain(second.conversationId);

    // Once the hold ran out, someone else may take it.
    t.clock.advance(11 * 60_000);
    await expect(t.services.answering.claim(other, first.conversationId)).resolves.toMatchObject({ claimed_until: expect.any(String) });
  });

  it('refuses members, moderators, staff of other sites and bad input, changing nothing', async () => {
    const w = await waiting('Anyone?');
    const count = async () => (await t.database.db.select().from(messages).where(eq(messages.conversationId, w.conversationId))).length;
    const refused: StaffActor[] = [{ ...agent, roles: ['moderator'] }, { ...agent, roles: ['finance'] }, { ...agent, siteIds: [t.siteId + 1000] }, { ...agent, siteIds: [] }];
    for (const actor of refused) {
      await expect(t.services.answering.claim(actor, w.conversationId)).rejects.toMatchObject({ status: 403 });
      await expect(t.services.answering.answer(actor, w.conversationId, { text: 'x', idempotencyKey: key() })).rejects.toMatchObject({ status: 403 });
    }
    for (const actor of [refused[0], refused[3]]) await expect(t.services.answering.queue(actor)).rejects.toMatchObject({ status: 403 });
    await expect(t.services.answering.queue({ kind: 'member', userId: w.member.user.id, siteId: t.siteId })).rejects.toMatchObject({ status: 403 });
    await expect(t.services.answering.figures({ kind: 'visitor', siteId: t.siteId })).rejects.toMatchObject({ status: 403 });
    // A conversation between two members is nobody's to answer.
    const a = await signUp(t);
    const b = await signUp(t);
    const plain = await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'Between us' }, { 'idempotency-key': key() });
    await expect(t.services.answering.claim(agent, plain.body.message.conversation_id)).rejects.toMatchObject({ status: 404 });
    await expect(t.services.answering.claim(agent, 2_000_000_000)).rejects.toMatchObject({ status: 404 });

    await t.services.answering.claim(agent, w.conversationId);
    for (const input of [{ text: '   ', idempotencyKey: key() }, { text: 'ok', idempotencyKey: 'short' }, { text: 'x'.repeat(10_001), idempotencyKey: key() }]) {
      await expect(t.services.answering.answer(agent, w.conversationId, input)).rejects.toMatchObject({ status: 400 });
    }
    for (const q of [{ from: '2026-13-01' }, { from: '2026-06-10', to: '2026-06-01' }, { from: '2020-01-01', to: '2026-01-01' }]) {
      await expect(t.services.answering.figures(agent, q)).rejects.toMatchObject({ status: 400, code: 'invalid_period' });
    }
    expect(await count()).toBe(1);
  });

  it('response-time figures: the median and 90th percentile of known times, exactly, and the number waiting', async () => {
    // A site of its own, so that the figures are only these conversations'.
    const [site] = await t.database.db.insert(sites).values({ domain: `figures-${kind}.localhost`, name: 'Figures', companyId: (await t.database.db.select().from(sites).where(eq(sites.id, t.siteId)))[0].companyId }).returning();
    const figuresAgent: StaffActor = { ...agent, siteIds: [site.id] };
    const base = Date.parse('2026-06-03T08:00:00Z');
    // Ten conversations answered after 10, 20, … 100 minutes; the member wrote twice in each, the first message counts.
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    for (let i = 1; i <= 11; i++) {
      const f = await signUp(t);
      const m = await signUp(t);
      await t.database.db.update(profiles).set({ fictional: true }).where(eq(profiles.userId, f.user.id));
      await t.database.db.update(users).set({ siteId: site.id }).where(inArray(users.id, [f.user.id, m.user.id]));
      const [low, high] = f.user.id < m.user.id ? [f.user.id, m.user.id] : [m.user.id, f.user.id];
      const [c] = await t.database.db.insert(conversations).values({ userLow: low, userHigh: high }).returning();
      const rows = [
        { conversationId: c.id, senderId: m.user.id, body: 'hi', createdAt: at(0) },
        { conversationId: c.id, senderId: m.user.id, body: 'hello?', createdAt: at(1) },
      ];
      // The eleventh waits.
      if (i <= 10) rows.push({ conversationId: c.id, senderId: f.user.id, body: 'hey', createdAt: at(i * 10) });
      // An earlier turn, answered before the period: it counts for nothing.
      await t.database.db.insert(messages).values([
        { conversationId: c.id, senderId: m.user.id, body: 'old', createdAt: new Date(base - 5 * 86_400_000) },
        { conversationId: c.id, senderId: f.user.id, body: 'old answer', createdAt: new Date(base - 5 * 86_400_000 + 1000) },
      ]);
      await t.database.db.insert(messages).values(rows);
    }
    const report = await t.services.answering.figures(figuresAgent, { from: '2026-06-02', to: '2026-06-04' });
    // Seconds 600 … 6000: the median is (3000 + 3600) / 2; the 90th percentile 5400 + 0.1 × 600.
    expect(report).toEqual({ from: '2026-06-02', to: '2026-06-04', sites: [{ site_id: site.id, site_name: 'Figures', answered: 10, median_seconds: 3300, p90_seconds: 5460, waiting: 1 }] });
    const earlier = await t.services.answering.figures(figuresAgent, { from: '2026-05-28', to: '2026-05-29' });
    expect(earlier.sites[0]).toMatchObject({ answered: 11, median_seconds: 1, p90_seconds: 1, waiting: 0 });
  });
});
