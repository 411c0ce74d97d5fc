import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LiveEvent } from '#common/live.ts';
import { addCredits } from '../credits/ledger.ts';
import { creditLedger, users } from '../db/schema.ts';
import { SAME_TEXT_RECIPIENTS } from './chat-send.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('chat: read receipts, typing and copy-paste spam on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  let keys = 0;
  const give = (userId: number, credits: number) => t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', `grant-${userId}-${++keys}`));
  const send = (client: ReturnType<TestApp['client']>, to: number, text: string) =>
    client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': `chat-live-key-${++keys}` });
  /** What the live channel would carry to a member's tabs. */
  async function listen(userId: number) {
    const events: LiveEvent[] = [];
    const off = await t.services.live.subscribe(userId, (e) => events.push(e));
    return { events, off };
  }

  it('read receipts: the sender sees "read" once the recipient opened the conversation, and hears of it live', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await give(a.user.id, 20);
    const sent = await send(a.client, b.user.id, 'Hello B');
    expect(sent.status).toBe(201);
    let mine = (await a.client.get(`/api/messages.php?profile=${b.user.id}`)).body.messages;
    expect(mine).toEqual([expect.objectContaining({ from_me: true, read: false })]);

    const aTabs = await listen(a.user.id);
    const theirs = (await b.client.get(`/api/messages.php?profile=${a.user.id}`)).body.messages;
    expect(theirs[0]).not.toHaveProperty('read');
    await t.services.events.settle();
    expect(aTabs.events).toEqual([{ type: 'read', profile_id: b.user.id, conversation_id: sent.body.message.conversation_id }]);
    mine = (await a.client.get(`/api/messages.php?profile=${b.user.id}`)).body.messages;
    expect(mine[0].read).toBe(true);
    // Opening it again, with nothing new, tells no one anything.
    await b.client.get(`/api/messages.php?profile=${a.user.id}`);
    await t.services.events.settle();
    expect(aTabs.events).toHaveLength(1);
    aTabs.off();
  });

  it('read receipts off: neither shown to others nor seen, and nothing is sent live', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await give(a.user.id, 20);
    expect((await b.client.put('/api/notifications.php', { read_receipts: false })).body.read_receipts).toBe(false);
    expect((await b.client.put('/api/notifications.php', { read_receipts: 'no' })).status).toBe(400);
    await send(a.client, b.user.id, 'Hello again');
    const aTabs = await listen(a.user.id);
    await b.client.get(`/api/messages.php?profile=${a.user.id}`);
    await t.services.events.settle();
    expect(aTabs.events).toEqual([]);
    expect((await a.client.get(`/api/messages.php?profile=${b.user.id}`)).body.messages[0]).not.toHaveProperty('read');
    aTabs.off();
  });

  it('typing reaches the recipient live, only where a message could go', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const bTabs = await listen(b.user.id);
    expect((await a.client.post('/api/typing.php', { profile_id: b.user.id })).status).toBe(200);
    expect(bTabs.events).toEqual([{ type: 'typing', profile_id: a.user.id }]);

    const unconfirmed = await signUp(t, {}, { confirmed: false });
    expect((await a.client.post('/api/typing.php', { profile_id: unconfirmed.user.id })).body.error.code).toBe('recipient_unconfirmed');
    await b.client.post('/api/block.php', { profile_id: a.user.id });
    expect((await a.client.post('/api/typing.php', { profile_id: b.user.id })).status).toBe(404);
    expect(bTabs.events).toHaveLength(1);
    expect((await a.client.post('/api/typing.php', { profile_id: a.user.id })).body.error.code).toBe('cannot_message_self');
    expect((await a.client.post('/api/typing.php', { profile_id: 2147483648 })).status).toBe(400);
    expect((await t.client().post('/api/typing.php', { profile_id: b.user.id })).status).toBe(403);
    bTabs.off();
  });

  it(`the same text to more than ${SAME_TEXT_RECIPIENTS} members within an hour is refused and not charged`, async () => {
    const spammer = await signUp(t);
    await give(spammer.user.id, 100);
    // A paying member: free members write in two conversations at most anyway.
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, spammer.user.id));
    const text = 'Hey gorgeous, check my profile!';
    const recipients = [];
    for (let i = 0; i <= SAME_TEXT_RECIPIENTS; i++) recipients.push((await signUp(t)).user);
    for (const r of recipients.slice(0, SAME_TEXT_RECIPIENTS)) expect((await send(spammer.client, r.id, text)).status).toBe(201);
    const ledgerBefore = await t.database.db.$count(creditLedger, eq(creditLedger.userId, spammer.user.id));
    const refused = await send(spammer.client, recipients[SAME_TEXT_RECIPIENTS].id, text);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'same_text_throttled', message: expect.stringContaining(String(SAME_TEXT_RECIPIENTS)) });
    expect(await t.database.db.$count(creditLedger, eq(creditLedger.userId, spammer.user.id))).toBe(ledgerBefore);
    // A personal message still goes, and so does the same text again to someone who already has it.
    expect((await send(spammer.client, recipients[SAME_TEXT_RECIPIENTS].id, 'Hi, I liked your photo of the lake.')).status).toBe(201);
    expect((await send(spammer.client, recipients[0].id, text)).status).toBe(201);
    // An hour later the window has passed.
    t.clock.advance(61 * 60_000);
    const later = (await signUp(t)).user;
    expect((await send(spammer.client, later.id, text)).status).toBe(201);
  });
});
