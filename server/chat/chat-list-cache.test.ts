import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ONLINE_MINUTES } from '#common/constants.ts';
import { createApp } from '../app.ts';
import { addCredits } from '../credits/ledger.ts';
import { messages, photos, profiles, users } from '../db/schema.ts';
import { loadEnv } from '../env.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createLogger } from '../infra/logger.ts';
import { localStorage } from '../infra/storage.ts';
import { createServices } from '../services.ts';
import { createChatListCache } from './chat-list-cache.ts';
import { countingDb, createTestApp, DATABASE_KINDS, signUp, TestClient, type TestApp } from '../../tests/helpers/test-app.ts';

describe('the chat list cache', () => {
  const list = (version: number, json: string, builtAt = 0, firstOfflineAt: number | null = null) => ({ version, day: '2026-06-01', builtAt, firstOfflineAt, answer: Buffer.from(json) });

  it('serves a list only at its version, on its day, before a dot goes out and within a minute of its build', () => {
    const cache = createChatListCache();
    cache.set(1, list(7, '[1]', 1_000, 50_000));
    expect(cache.get(1, 7, '2026-06-01', 2_000)?.toString()).toBe('[1]');
    expect(cache.get(1, 8, '2026-06-01', 2_000)).toBeUndefined();
    cache.set(1, list(7, '[1]', 1_000, 50_000));
    expect(cache.get(1, 7, '2026-06-02', 2_000)).toBeUndefined();
    cache.set(1, list(7, '[1]', 1_000, 50_000));
    expect(cache.get(1, 7, '2026-06-01', 50_000)).toBeUndefined();
    cache.set(1, list(7, '[1]', 1_000, null));
    expect(cache.get(1, 7, '2026-06-01', 60_999)?.toString()).toBe('[1]');
    expect(cache.get(1, 7, '2026-06-01', 61_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps the lists within its size, dropping the least recently used first', () => {
    const cache = createChatListCache({ maxBytes: 10 });
    cache.set(1, list(1, '[aaaa]'));
    cache.set(2, list(1, '[bb]'));
    expect(cache.get(1, 1, '2026-06-01', 0)?.toString()).toBe('[aaaa]');
    cache.set(3, list(1, '[c]'));
    expect(cache.size).toBe(2);
    expect(cache.get(2, 1, '2026-06-01', 0)).toBeUndefined();
    expect(cache.get(1, 1, '2026-06-01', 0)?.toString()).toBe('[aaaa]');
    cache.set(4, list(1, '[more than ten]'));
    expect(cache.get(4, 1, '2026-06-01', 0)).toBeUndefined();
  });
});

describe.each(DATABASE_KINDS)('chat lists served again on %s', (kind) => {
  let t: TestApp;
  /** A second instance of the server over the same database, whose statements are recorded. */
  let other: { app: ReturnType<typeof createApp>; statements: string[] };
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const { db, statements } = countingDb(t, kind);
    const services = createServices({ db, clock: t.clock, storage: localStorage(t.photosDir), logger: createLogger('error') });
    other = { app: createApp({ services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test' }), logger: createLogger('silent') }), statements };
  });
  afterAll(() => t.close());

  const listBuilds = () => other.statements.filter((s) => s.includes('num_unread_messages')).length;
  /** A member's chat list from the second instance, and whether it was built for this request. */
  async function chatsOnOther(client: TestClient) {
    const there = new TestClient(other.app, 'localhost', {});
    for (const [name, value] of client.cookies) there.cookies.set(name, value);
    const before = listBuilds();
    const res = await there.get('/api/chats.php');
    expect(res.status).toBe(200);
    return { chats: res.body.chats as { profile: { id: number; name: string; age: number; online: boolean; main_image: unknown }; num_unread_messages: number; last_message: { text: string } }[], built: listBuilds() > before };
  }
  /** The list as the chat service builds it now, without any copy. */
  const fresh = async (userId: number) => t.services.chat.list({ kind: 'member', userId, siteId: t.siteId });

  let sends = 0;
  async function pair() {
    const a = await signUp(t);
    const b = await signUp(t, { date_of_birth: '1990-06-02' });
    await t.database.db.transaction((tx) => addCredits(tx, a.user.id, 100, 'demo_grant', `grant-${a.user.id}`));
    await t.database.db.transaction((tx) => addCredits(tx, b.user.id, 100, 'demo_grant', `grant-${b.user.id}`));
    const send = async (from: typeof a, to: typeof a, text: string) =>
      expect((await from.client.post('/api/messages.php', { profile_id: to.user.id, text }, { 'idempotency-key': `send-${from.user.id}-${++sends}-key` })).status).toBe(201);
    await send(a, b, 'Hello B');
    return { a, b, send };
  }

  it('builds a list once and serves it again until something in it changes, on another instance too', async () => {
    const { a, b, send } = await pair();
    expect(await chatsOnOther(a.client)).toMatchObject({ built: true });
    const again = await chatsOnOther(a.client);
    expect(again.built).toBe(false);
    expect(again.chats).toEqual(await fresh(a.user.id));
    // A message from B, sent through the first instance: the copy on the second is not served.
    await send(b, a, 'Hi A, nice to meet you');
    const after = await chatsOnOther(a.client);
    expect(after).toMatchObject({ built: true, chats: [{ num_unread_messages: 1, last_message: { text: 'Hi A, nice to meet you' } }] });
    expect(after.chats).toEqual(await fresh(a.user.id));
  });

  it("answers a kept chat list and the member's own record with one statement each, the session's", async () => {
    const { a } = await pair();
    const there = new TestClient(other.app, 'localhost', {});
    for (const [name, value] of a.client.cookies) there.cookies.set(name, value);
    const statementsOf = async (path: string) => {
      const before = other.statements.length;
      const res = await there.get(path);
      expect(res.status).toBe(200);
      return other.statements.slice(before);
    };
    await statementsOf('/api/chats.php');
    expect(await statementsOf('/api/chats.php')).toHaveLength(1);
    const user = await statementsOf('/api/user.php');
    expect(user).toHaveLength(1);
    expect(user[0]).toMatch(/"sessions"/);
  });

  it('shows every change to what the list holds at once', async () => {
    const { a, b, send } = await pair();
    const db = t.database.db;
    const [photo] = await db.insert(photos).values({ userId: b.user.id, filename: `f-${b.user.id}.jpg`, thumbFilename: `t-${b.user.id}.jpg`, status: 'active', width: 10, height: 10 }).returning();
    const conversationId = (await a.client.get('/api/chats.php')).body.chats[0].conversation.id as number;
    const changes: [string, () => Promise<unknown>, (chats: Awaited<ReturnType<typeof chatsOnOther>>['chats']) => void][] = [
      ['a message in', () => send(b, a, 'A reply'), (c) => expect(c[0]).toMatchObject({ num_unread_messages: 1, last_message: { text: 'A reply' } })],
      ['the conversation read', () => a.client.get(`/api/messages.php?conversation=${conversationId}`), (c) => expect(c[0].num_unread_messages).toBe(0)],
      ['a message out', () => send(a, b, 'My answer'), (c) => expect(c[0].last_message.text).toBe('My answer')],
      ['the other member renamed', () => db.update(profiles).set({ name: 'Renamed' }).where(eq(profiles.userId, b.user.id)), (c) => expect(c[0].profile.name).toBe('Renamed')],
      ['a main photo set', () => db.update(profiles).set({ mainPhotoId: photo.id }).where(eq(profiles.userId, b.user.id)), (c) => expect(c[0].profile.main_image).toMatchObject({ filename: photo.filename })],
      ['the main photo rejected', () => db.update(photos).set({ status: 'rejected' }).where(eq(photos.id, photo.id)), (c) => expect(c[0].profile.main_image).toBeNull()],
      ['the other member invisible', () => db.update(users).set({ invisible: true }).where(eq(users.id, b.user.id)), (c) => expect(c[0].profile.online).toBe(false)],
      ['the last message removed', () => db.delete(messages).where(eq(messages.body, 'My answer')), (c) => expect(c[0].last_message.text).toBe('A reply')],
      ['the chat hidden', () => a.client.delete('/api/chat.php', { conversation: conversationId }), (c) => expect(c).toEqual([])],
      ['shown again by a new message', () => send(b, a, 'Still there?'), (c) => expect(c).toHaveLength(1)],
      ['the other member blocked', () => a.client.post('/api/block.php', { profile_id: b.user.id }), (c) => expect(c).toEqual([])],
      ['the block lifted', () => a.client.delete('/api/block.php', { profile_id: b.user.id }), (c) => expect(c).toHaveLength(1)],
      ['blocked by the other member', () => b.client.post('/api/block.php', { profile_id: a.user.id }), (c) => expect(c).toEqual([])],
      ['that block lifted', () => b.client.delete('/api/block.php', { profile_id: a.user.id }), (c) => expect(c).toHaveLength(1)],
      ['the other account deleted', () => db.update(users).set({ status: 'deleted' }).where(eq(users.id, b.user.id)), (c) => expect(c).toMatchObject([{ left: true, profile: { main_image: null, online: false } }])],
    ];
    for (const [change, make, check] of changes) {
      await chatsOnOther(a.client);
      expect((await chatsOnOther(a.client)).built, `a copy before: ${change}`).toBe(false);
      await make();
      const { chats, built } = await chatsOnOther(a.client);
      expect(built, change).toBe(true);
      check(chats);
      expect(chats, change).toEqual(await fresh(a.user.id));
    }
  });

  it("keeps a member's unread count while their chat list's version stands, and follows every change to it", async () => {
    const { a, b, send } = await pair();
    const there = new TestClient(other.app, 'localhost', {});
    for (const [name, value] of a.client.cookies) there.cookies.set(name, value);
    const userOnOther = async () => {
      const before = other.statements.length;
      const res = await there.get('/api/user.php');
      expect(res.status).toBe(200);
      return { unread: res.body.user.num_unread_messages as number, statements: other.statements.slice(before) };
    };
    const counted = (statements: string[]) => statements.filter((s) => s.includes('unread_count')).length;
    const conversationId = (await a.client.get('/api/chats.php')).body.chats[0].conversation.id as number;
    // Learnt with the session's statement, then served again from one statement that does not count.
    expect(counted((await userOnOther()).statements)).toBe(1);
    const kept = await userOnOther();
    expect([kept.unread, kept.statements.length, counted(kept.statements)]).toEqual([0, 1, 0]);
    const changes: [string, () => Promise<unknown>, number][] = [
      ['a message in', () => send(b, a, 'One'), 1],
      ['another message in', () => send(b, a, 'Two'), 2],
      ['the conversation read', () => a.client.get(`/api/messages.php?conversation=${conversationId}`), 0],
      ['a message in again', () => send(b, a, 'Three'), 1],
      ['the other member blocked', () => a.client.post('/api/block.php', { profile_id: b.user.id }), 0],
      ['the block lifted', () => a.client.delete('/api/block.php', { profile_id: b.user.id }), 1],
      ['blocked by the other member', () => b.client.post('/api/block.php', { profile_id: a.user.id }), 0],
      ['that block lifted', () => b.client.delete('/api/block.php', { profile_id: a.user.id }), 1],
      ['the chat hidden', () => a.client.delete('/api/chat.php', { conversation: conversationId }), 0],
    ];
    for (const [change, make, unread] of changes) {
      await make();
      const after = await userOnOther();
      // The session's statement saw the version move: the count is read again, with its version.
      expect([after.unread, after.statements.length, counted(after.statements)], change).toEqual([unread, 2, 1]);
      expect((await t.services.accounts.apiUser(a.user.id))?.num_unread_messages, change).toBe(unread);
      const again = await userOnOther();
      expect([again.unread, again.statements.length], change).toEqual([unread, 1]);
    }
  });

  it('puts out an online dot and counts a birthday without any change to the data', async () => {
    const { a, b } = await pair();
    // B's last request was at the clock's time: online.
    expect((await chatsOnOther(a.client)).chats[0].profile.online).toBe(true);
    t.clock.advance(ONLINE_MINUTES * 60_000 - 59_000);
    expect((await chatsOnOther(a.client)).chats[0].profile.online).toBe(true);
    // 58 s after that build, 1 s before the dot goes out: the copy; at the moment it goes out, a new list.
    t.clock.advance(58_000);
    expect((await chatsOnOther(a.client)).built).toBe(false);
    t.clock.advance(1_000);
    expect(await chatsOnOther(a.client)).toMatchObject({ built: true, chats: [{ profile: { online: false } }] });
    // B comes back: within a minute (activity is recorded to the minute) the list shows it.
    expect((await b.client.get('/api/user.php')).status).toBe(200);
    t.clock.advance(60_000);
    expect((await chatsOnOther(a.client)).chats[0].profile.online).toBe(true);
    // B was born on 2 June: the test clock's 1 June becomes 2 June.
    const age = (await chatsOnOther(a.client)).chats[0].profile.age;
    t.clock.set(`${t.clock().toISOString().slice(0, 10)}T23:59:59Z`);
    expect((await chatsOnOther(a.client)).chats[0].profile.age).toBe(age);
    t.clock.advance(1_000);
    expect((await chatsOnOther(a.client)).chats[0].profile.age).toBe(age + 1);
  });
});
