import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_CONVERSATIONS } from '#common/constants.ts';
import { addCredits } from '../credits/ledger.ts';
import { creditLedger, messages, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('free members: free messages and the conversation limit on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, freeMessages: 3 });
  });
  afterAll(() => t.close());

  let keys = 0;
  const send = (client: TestClient, to: number, text = `Hello ${++keys}`) =>
    client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': `free-msg-key-${++keys}` });
  const ledger = (userId: number) => t.database.db.$count(creditLedger, eq(creditLedger.userId, userId));
  const give = (userId: number, credits: number) => t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', `free-grant-${userId}-${++keys}`));

  it('a new member sends the site\'s free messages without credits, then needs credits', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    for (const left of [2, 1, 0]) {
      const res = await send(me.client, other.user.id);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ credits: 0, free_messages_left: left });
    }
    const refused = await send(me.client, other.user.id);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect(await t.database.db.$count(messages, eq(messages.senderId, me.user.id))).toBe(3);
    expect(await ledger(me.user.id)).toBe(0);
    // With credits the next message is paid, with its ledger row.
    await give(me.user.id, 10);
    expect((await send(me.client, other.user.id)).body).toMatchObject({ credits: 5, free_messages_left: 0 });
    expect(await ledger(me.user.id)).toBe(2);
  });

  it(`a free member writes in at most ${FREE_CONVERSATIONS} conversations, credits or not; a premium member in any`, async () => {
    const me = await signUp(t);
    await give(me.user.id, 50);
    const others = [];
    for (let i = 0; i <= FREE_CONVERSATIONS; i++) others.push((await signUp(t)).user);
    for (const o of others.slice(0, FREE_CONVERSATIONS)) expect((await send(me.client, o.id)).status).toBe(201);
    const third = await send(me.client, others[FREE_CONVERSATIONS].id);
    expect(third.status).toBe(403);
    expect(third.body.error).toMatchObject({ code: 'free_conversation_limit', message: expect.stringContaining(String(FREE_CONVERSATIONS)) });
    // The conversations already started go on.
    expect((await send(me.client, others[0].id)).status).toBe(201);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, me.user.id));
    const paid = await send(me.client, others[FREE_CONVERSATIONS].id);
    expect(paid.status).toBe(201);
    expect(paid.body.free_messages_left).toBe(0);
  });

  it('parallel sends cannot use one free message twice', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await send(me.client, other.user.id);
    await send(me.client, other.user.id);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(me.client, other.user.id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(4);
    expect(await t.database.db.$count(messages, eq(messages.senderId, me.user.id))).toBe(3);
  });

  it('the first message written during sign-up is one of the free messages and arrives', async () => {
    const other = await signUp(t);
    const client = t.client();
    const res = await client.post('/api/signup.php', {
      email: `free.signup.${Date.now()}@example.org`, name: 'Newcomer', password: 'correct horse battery', date_of_birth: '1991-02-03',
      gender: 'male', country: 'NL', profile_id: other.user.id, signup_message: 'Hi, I saw your profile!',
    });
    expect(res.status).toBe(201);
    expect(res.body.signup_message).toMatchObject({ status: 'sent', credits: 0 });
    const inbox = (await other.client.get(`/api/messages.php?profile=${res.body.user.id}`)).body.messages;
    expect(inbox.map((m: { text: string }) => m.text)).toEqual(['Hi, I saw your profile!']);
  });
});
