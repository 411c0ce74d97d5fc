import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, messages } from '../db/schema.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/** Support reads a member's conversation only where a report concerns it, and every reading is audited. */
describe.each(DATABASE_KINDS)('reading a reported conversation on %s', (kind) => {
  let t: TestApp;
  let agent: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, freeMessages: 10 });
    agent = await createStaff(t, { roles: ['support'], siteIds: [t.siteId] });
  });
  afterAll(() => t.close());

  let keys = 0;
  const send = async (from: Awaited<ReturnType<typeof signUp>>, to: number, text: string) => {
    const res = await from.client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': `read-conv-${++keys}-key` });
    expect(res.status).toBe(201);
    return res.body.message.id as number;
  };
  const reads = (conversationId: number) => t.database.db.$count(auditLog, and(eq(auditLog.action, 'member.read_conversation'), eq(auditLog.objectId, String(conversationId))));
  const refusal = (work: Promise<unknown>) => work.then(() => 'allowed', (e: { status?: number; code?: string }) => `${e.status} ${e.code}`);

  it('opens a conversation in which a message was reported, with an audit row; any other is refused and nothing is written', async () => {
    const member = await signUp(t, { name: 'Sender' });
    const victim = await signUp(t, { name: 'Victim' });
    const friend = await signUp(t, { name: 'Friend' });
    await send(victim, member.user.id, 'Hello there');
    const bad = await send(member, victim.user.id, 'Send me your bank details please');
    await send(member, friend.user.id, 'See you on Saturday');
    expect((await victim.client.post('/api/report.php', { profile_id: member.user.id, kind: 'message', content_id: bad, reason: 'scam' })).status).toBe(201);
    const [reported] = await t.database.db.select({ id: messages.conversationId }).from(messages).where(eq(messages.id, bad));
    const [unreported] = await t.database.db.select({ id: messages.conversationId }).from(messages).where(eq(messages.body, 'See you on Saturday'));

    // The member's page says which conversations may be read.
    const overview = await t.client({ headers: agent.bearer }).get(`/api/support-member.php?id=${member.user.id}`);
    const latest = overview.body.conversations.latest as { id: number; reported: boolean }[];
    expect(latest.find((c) => c.id === reported.id)?.reported).toBe(true);
    expect(latest.find((c) => c.id === unreported.id)?.reported).toBe(false);

    const api = t.client({ headers: agent.bearer });
    const read = await api.get(`/api/support-conversation.php?member_id=${member.user.id}&id=${reported.id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ id: reported.id, total: 2, reports: [{ message_id: bad, reporter_id: victim.user.id, reason: 'scam', status: 'open' }] });
    expect(read.body.messages.map((m: { body: string; reported: boolean }) => [m.body, m.reported])).toEqual([
      ['Hello there', false], ['Send me your bank details please', true],
    ]);
    expect(await reads(reported.id)).toBe(1);
    const [row] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'member.read_conversation'), eq(auditLog.objectId, String(reported.id))));
    expect(row).toMatchObject({ staffId: agent.actor.staffId, role: 'support', memberId: member.user.id, objectType: 'conversation' });
    // The other member of the conversation reaches it too (it concerns them as well).
    expect((await api.get(`/api/support-conversation.php?member_id=${victim.user.id}&id=${reported.id}`)).status).toBe(200);

    // A conversation no report concerns: 403, not read, nothing written.
    const refused = await api.get(`/api/support-conversation.php?member_id=${member.user.id}&id=${unreported.id}`);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'conversation_not_reported']);
    expect(await reads(unreported.id)).toBe(0);
    // A conversation that is not the member's, or none at all: 404.
    expect(await refusal(t.services.console.readConversation(agent.actor, friend.user.id, reported.id))).toBe('404 not_found');
    expect(await refusal(t.services.console.readConversation(agent.actor, member.user.id, 2_000_000_000))).toBe('404 not_found');
    // Staff of another site, a moderator without support, a member: refused.
    const elsewhere = await createStaff(t, { roles: ['support'], siteIds: [t.siteId + 1000] });
    expect(await refusal(t.services.console.readConversation(elsewhere.actor, member.user.id, reported.id))).toBe('403 forbidden');
    const moderator = await createStaff(t, { roles: ['moderator'] });
    expect((await t.client({ headers: moderator.bearer }).get(`/api/support-conversation.php?member_id=${member.user.id}&id=${reported.id}`)).status).toBe(403);
    expect(await refusal(t.services.console.readConversation(member.actor, member.user.id, reported.id))).toBe('403 forbidden');
    expect((await api.get(`/api/support-conversation.php?member_id=${member.user.id}&id=abc`)).status).toBe(400);
    expect(await reads(reported.id)).toBe(2);
  });
});
