import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, or, sql } from 'drizzle-orm';
import { conversations, creditLedger, messages, photos, profiles, users } from '../db/schema.ts';
import { addCredits } from '../credits/ledger.ts';
import { actorFor } from '../actor.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('chat and credits on %s', (kind) => {
  let t: TestApp;
  let otherId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 6 });
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(sql`${users.email} like 'member%@demo.amora.invalid'`).limit(1);
    otherId = row.id;
  });
  afterAll(() => t.close());

  const give = (userId: number, credits: number, ref: string) =>
    t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', ref));
  const balance = async (userId: number) => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, userId)))[0].c;
  const ledgerSum = async (userId: number) =>
    (await t.database.db.select({ s: sql<number>`coalesce(sum(${creditLedger.delta}),0)::int` }).from(creditLedger).where(eq(creditLedger.userId, userId)))[0].s;
  const send = (client: ReturnType<TestApp['client']>, to: number, text: string, key: string) =>
    client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': key });

  it('charges message_credits per message in the ledger and delivers it', async () => {
    const { client, user } = await signUp(t);
    await give(user.id, 12, `grant-${user.id}`);
    const res = await send(client, otherId, 'Hello there!', 'key-aaaaaaaa-1');
    expect(res.status).toBe(201);
    expect(res.body.credits).toBe(7);
    expect(res.body.message).toMatchObject({ text: 'Hello there!', from_me: true });
    expect(await balance(user.id)).toBe(7);
    expect(await ledgerSum(user.id)).toBe(7);
    const rows = await t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(rows.map((r) => [r.delta, r.balanceAfter, r.reason])).toEqual([[12, 12, 'demo_grant'], [-5, 7, 'message']]);
  });

  // A member who has bought credits before sends in one statement, one still on the free allowance in a
  // transaction: both are held to the same rules.
  const member = async (boughtBefore: boolean) => {
    const signedUp = await signUp(t);
    if (boughtBefore) await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, signedUp.user.id));
    return signedUp;
  };

  it.each([false, true])('refuses a message it cannot pay for with insufficient_credits, sending and charging nothing (bought before: %s)', async (boughtBefore) => {
    const { client, user } = await member(boughtBefore);
    await give(user.id, 4, `grant-${user.id}`);
    const res = await send(client, otherId, 'Can you read this?', 'key-bbbbbbbb-1');
    expect(res.status).toBe(402);
    expect(res.body.error).toEqual({ code: 'insufficient_credits', message: "You don't have enough credits to send this message. Buy credits to continue the conversation." });
    expect(await balance(user.id)).toBe(4);
    expect(await t.database.db.$count(messages, eq(messages.senderId, user.id))).toBe(0);
    expect(await t.database.db.$count(conversations, or(eq(conversations.userLow, user.id), eq(conversations.userHigh, user.id)))).toBe(0);
  });

  it.each([false, true])('sends and charges once however often the same send is retried (bought before: %s)', async (boughtBefore) => {
    const { client, user } = await member(boughtBefore);
    await give(user.id, 50, `grant-${user.id}`);
    const first = await send(client, otherId, 'Once only', 'retry-key-0001');
    const retries = await Promise.all([1, 2, 3, 4].map(() => send(client, otherId, 'Once only', 'retry-key-0001')));
    expect(first.status).toBe(201);
    for (const r of retries) {
      expect(r.status).toBe(200);
      expect(r.body.message.id).toBe(first.body.message.id);
    }
    expect(await balance(user.id)).toBe(45);
    expect(await t.database.db.$count(messages, eq(messages.senderId, user.id))).toBe(1);
  });

  it.each([false, true])('never lets concurrent sends overspend: the balance stays at or above zero (bought before: %s)', async (boughtBefore) => {
    const { client, user } = await member(boughtBefore);
    await give(user.id, 22, `grant-${user.id}`);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => send(client, otherId, `race ${i}`, `race-key-${i}-abcdef`)));
    const ok = results.filter((r) => r.status === 201).length;
    const refused = results.filter((r) => r.status === 402).length;
    expect(ok).toBe(4);
    expect(refused).toBe(8);
    expect(await balance(user.id)).toBe(2);
    expect(await ledgerSum(user.id)).toBe(2);
    expect(await t.database.db.$count(messages, eq(messages.senderId, user.id))).toBe(4);
  });

  it('needs an idempotency key, a session, a text and a real recipient', async () => {
    const { client, user } = await signUp(t);
    await give(user.id, 50, `grant-${user.id}`);
    expect((await client.post('/api/messages.php', { profile_id: otherId, text: 'x' })).body.error.code).toBe('idempotency_key_required');
    expect((await t.client().post('/api/messages.php', { profile_id: otherId, text: 'x' }, { 'idempotency-key': 'anon-key-0001' })).status).toBe(403);
    expect((await send(client, otherId, '   ', 'empty-key-0001')).body.error.code).toBe('message_empty');
    expect((await send(client, 999999, 'hi', 'ghost-key-0001')).status).toBe(404);
    expect((await send(client, user.id, 'hi', 'self-key-00001')).body.error.code).toBe('cannot_message_self');
    await t.services.settings.updateSite(t.siteId, { messageLength: 10 });
    const long = await send(client, otherId, 'x'.repeat(11), 'long-key-00001');
    await t.services.settings.updateSite(t.siteId, { messageLength: 1000 });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('Your message is too long (at most 10 characters).');
    expect(await balance(user.id)).toBe(50);
  });

  it('keeps a conversation whose partner deleted their account readable, marked as left, and sends nothing more to them', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await give(a.user.id, 20, `grant-left-${a.user.id}`);
    expect((await send(a.client, b.user.id, 'Are you still there?', `key-left-${a.user.id}`)).status).toBe(201);
    await t.database.db.update(users).set({ status: 'deleted', deletedAt: t.clock() }).where(eq(users.id, b.user.id));

    const list = (await a.client.get('/api/chats.php')).body.chats as { conversation: { id: number }; profile: { id: number; online: boolean; main_image: unknown }; left: boolean }[];
    const row = list.find((c) => c.profile.id === b.user.id);
    expect(row).toMatchObject({ left: true, profile: { online: false, main_image: null } });
    expect(list.filter((c) => c.profile.id !== b.user.id).every((c) => c.left === false)).toBe(true);

    const byConversation = await a.client.get(`/api/messages.php?conversation=${row!.conversation.id}`);
    expect(byConversation.status).toBe(200);
    expect(byConversation.body.messages.map((m: { text: string }) => m.text)).toEqual(['Are you still there?']);
    const byProfile = await a.client.get(`/api/messages.php?profile=${b.user.id}`);
    expect(byProfile.body.messages).toHaveLength(1);
    const opened = await t.services.chat.openWith(actorFor(t.siteId, a.user.id), b.user.id);
    expect(opened).toMatchObject({ left: true, conversationId: row!.conversation.id, profile: { id: b.user.id, name: b.user.profile.name, photos: [], about: '' } });

    // Nothing more reaches them, and nothing is charged for trying.
    const credits = await balance(a.user.id);
    expect((await send(a.client, b.user.id, 'Hello?', `key-left2-${a.user.id}`)).status).toBe(404);
    expect(await balance(a.user.id)).toBe(credits);
    // Their profile is gone for everyone else, and for a member who never wrote to them.
    expect((await a.client.get(`/api/profile.php?id=${b.user.id}`)).status).toBe(404);
    const stranger = await signUp(t);
    expect((await stranger.client.get(`/api/messages.php?profile=${b.user.id}`)).status).toBe(404);
  });

  it('lists chats with unread counts; opening a conversation resets them; deleting hides it for one side', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await give(a.user.id, 50, `grant-${a.user.id}`);
    await send(a.client, b.user.id, 'one', 'unread-key-001');
    await send(a.client, b.user.id, 'two', 'unread-key-002');
    const userB = (await b.client.get('/api/user.php')).body.user;
    expect(userB.num_unread_messages).toBe(2);
    const chats = (await b.client.get('/api/chats.php')).body.chats;
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({ profile: { id: a.user.id, name: a.user.profile.name }, num_unread_messages: 2, last_message: { text: 'two', from_me: false } });
    const convId = chats[0].conversation.id;
    // Someone else's conversation does not exist for a third member.
    const c = await signUp(t);
    expect((await c.client.get(`/api/messages.php?conversation=${convId}`)).status).toBe(404);
    expect((await c.client.delete('/api/chat.php', { conversation: convId })).status).toBe(404);

    const read = await b.client.get(`/api/messages.php?conversation=${convId}`);
    expect(read.body.messages.map((m: { text: string; from_me: boolean }) => [m.text, m.from_me])).toEqual([['one', false], ['two', false]]);
    expect((await b.client.get('/api/chats.php')).body.chats[0].num_unread_messages).toBe(0);
    expect((await b.client.get('/api/user.php')).body.user.num_unread_messages).toBe(0);

    expect((await b.client.delete('/api/chat.php', { conversation: { id: convId } })).status).toBe(200);
    expect((await b.client.get('/api/chats.php')).body.chats).toHaveLength(0);
    expect((await a.client.get('/api/chats.php')).body.chats).toHaveLength(1);
    // A new message brings it back.
    await send(a.client, b.user.id, 'three', 'unread-key-003');
    expect((await b.client.get('/api/chats.php')).body.chats[0].num_unread_messages).toBe(1);
  });

  it('lists each chat with the profile summary every other list shows, a 140-character preview and the message times', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await give(a.user.id, 50, `grant-${a.user.id}`);
    // Birthdays on the clock's day and the day after: the age changes exactly on the birthday.
    const today = t.clock().toISOString().slice(0, 10);
    const tomorrow = new Date(t.clock().getTime() + 86_400_000).toISOString().slice(0, 10);
    await t.database.db.update(profiles).set({ birthDate: `${Number(today.slice(0, 4)) - 30}${today.slice(4)}` }).where(eq(profiles.userId, b.user.id));
    // A seeded member with an approved main photo.
    const [withPhoto] = await t.database.db.select({ id: profiles.userId }).from(profiles)
      .innerJoin(photos, and(eq(photos.id, profiles.mainPhotoId), eq(photos.status, 'active'))).limit(1);
    await t.database.db.update(profiles).set({ birthDate: `${Number(tomorrow.slice(0, 4)) - 40}${tomorrow.slice(4)}` }).where(eq(profiles.userId, withPhoto.id));
    const long = 'x'.repeat(139) + 'yz'.repeat(30);
    expect((await send(a.client, b.user.id, long, 'summary-key-001')).status).toBe(201);
    t.clock.advance(60_000);
    expect((await send(a.client, withPhoto.id, 'hello', 'summary-key-002')).status).toBe(201);

    const chats = (await a.client.get('/api/chats.php')).body.chats;
    expect(chats.map((c: { profile: { id: number } }) => c.profile.id)).toEqual([withPhoto.id, b.user.id]);
    for (const chat of chats) {
      expect(chat.profile).toEqual(await t.services.profiles.summary(chat.profile.id));
      const sent = (await a.client.get(`/api/messages.php?conversation=${chat.conversation.id}`)).body.messages.at(-1);
      expect(chat.last_message).toEqual({ kind: 'text', text: sent.text.slice(0, 140), from_me: true, created_at: sent.created_at });
      expect(new Date(chat.conversation.last_message_at).toISOString()).toBe(chat.conversation.last_message_at);
    }
    expect(chats[0].profile).toMatchObject({ age: 39, main_image: { status: 'active' } });
    expect(chats[1].profile.age).toBe(30);
    expect(chats[1].last_message.text).toBe('x'.repeat(139) + 'y');
    // The page loader's list is the same list.
    expect(await t.services.chat.list(actorFor(t.siteId, a.user.id))).toEqual(chats);
  });
});
