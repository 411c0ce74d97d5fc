import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_HISTORY_LIMIT, matchesWordFilter } from '#common/chat.ts';
import { addCredits } from '../credits/ledger.ts';
import { VIEWING_TTL_MS } from './chat-presence.ts';
import { conversationMembers, creditLedger, messages, profiles, sites, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';
import { createStaff } from '../../tests/helpers/staff.ts';


describe('the word filter matches whole words in any case and script', () => {
  it.each([
    ['You are an Idiot!', ['idiot'], true],
    ['a classic move', ['ass'], false],
    ['Ça va, connard?', ['connard'], true],
    ['send nudes now', ['send nudes'], true],
    ['sending nudes', ['send nudes'], false],
    ['(cash)', ['cash'], true],
    ['anything', [], false],
    ['a.b', ['.'], false],
  ] as const)('%s with %j → %s', (text, words, expected) => {
    expect(matchesWordFilter(text, words)).toBe(expected);
  });
});

describe.each(DATABASE_KINDS)('gifts, photos, word filter and prices in the chat on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, outbox: true });
  });
  afterAll(() => t.close());

  let keys = 0;
  const key = () => `chat-extra-key-${++keys}`;
  const give = (userId: number, credits: number) =>
    t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', `extra-grant-${userId}-${++keys}`));
  const ledger = (userId: number) => t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
  const sendPhoto = async (client: TestClient, to: number, bytes: Buffer, idem = key()) => {
    const form = new FormData();
    form.set('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'me.jpg');
    form.set('profile_id', String(to));
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.request('http://localhost/api/chat-photo.php', {
      method: 'POST', body: form, headers: { host: 'localhost', cookie, 'idempotency-key': idem },
    });
    return { status: res.status, body: await res.json() as any };
  };
  const fetchPhoto = async (client: TestClient | null, file: string) => {
    const cookie = client ? [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
    return (await t.app.request(`http://localhost/photos/${file}`, { headers: { host: 'localhost', ...(cookie ? { cookie } : {}) } })).status;
  };
  const phoneJpeg = () => sharp({ create: { width: 320, height: 240, channels: 3, background: '#36c' } })
    .withExifMerge({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 12/1' } })
    .jpeg().toBuffer();

  it('has a catalogue of at least 12 gifts, each with an image that ships with the site', async () => {
    const me = await signUp(t);
    const res = await me.client.get('/api/gifts.php');
    expect(res.status).toBe(200);
    expect(res.body.gifts.length).toBeGreaterThanOrEqual(12);
    for (const gift of res.body.gifts) expect(existsSync(join('public', gift.image))).toBe(true);
    expect(res.body.prices).toMatchObject({ message: 5, gift: 20, photo: 10 });
    expect(res.body.prices.credit_price).toMatchObject({ currency: 'EUR', credits: expect.any(Number), amount: expect.any(Number) });
    expect((await t.client().get('/api/gifts.php')).status).toBe(403);
  });

  it('a gift costs gift_credits once, with its ledger row, however often the send is retried', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 45);
    const { gifts } = (await me.client.get('/api/gifts.php')).body;
    const idem = key();
    const sends = await Promise.all([1, 2, 3].map(() => me.client.post('/api/gift.php', { profile_id: other.user.id, gift_id: gifts[0].id }, { 'idempotency-key': idem })));
    expect(sends.map((s) => s.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(sends.map((s) => s.body.message.id)).size).toBe(1);
    expect(sends[0].body.message).toMatchObject({ kind: 'gift', gift: { id: gifts[0].id, slug: gifts[0].slug } });
    expect((await ledger(me.user.id)).map((r) => [r.delta, r.reason])).toEqual([[45, 'demo_grant'], [-20, 'gift']]);
    // The same key for another gift is not a retry.
    expect((await me.client.post('/api/gift.php', { profile_id: other.user.id, gift_id: gifts[1].id }, { 'idempotency-key': idem })).status).toBe(422);
    // The recipient sees the gift in the conversation.
    const convId = sends[0].body.message.conversation_id;
    const seen = await other.client.get(`/api/messages.php?conversation=${convId}`);
    expect(seen.body.messages).toEqual([expect.objectContaining({ kind: 'gift', from_me: false, gift: expect.objectContaining({ slug: gifts[0].slug }) })]);
    // 25 credits left: one more gift, then the third is refused with nothing charged.
    expect((await me.client.post('/api/gift.php', { profile_id: other.user.id, gift_id: gifts[2].id }, { 'idempotency-key': key() })).body.credits).toBe(5);
    const short = await me.client.post('/api/gift.php', { profile_id: other.user.id, gift_id: gifts[2].id }, { 'idempotency-key': key() });
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe('insufficient_credits');
    expect((await ledger(me.user.id)).length).toBe(3);
  });

  it('refuses unknown gifts and bad input without charging', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 100);
    for (const body of [
      { profile_id: other.user.id, gift_id: 999_999 },
      { profile_id: other.user.id, gift_id: '1' },
      { profile_id: other.user.id, gift_id: 1e30 },
      { profile_id: other.user.id },
      { profile_id: 'x', gift_id: 1 },
      { profile_id: me.user.id, gift_id: 1 },
    ]) {
      const res = await me.client.post('/api/gift.php', body, { 'idempotency-key': key() });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    expect((await ledger(me.user.id)).length).toBe(1);
  });

  it('a photo in the chat costs photo_credits, loses its metadata, and only the two members can fetch it', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    const stranger = await signUp(t);
    await give(me.user.id, 10);
    const res = await sendPhoto(me.client, other.user.id, await phoneJpeg());
    expect(res.status).toBe(201);
    expect(res.body.credits).toBe(0);
    const { photo } = res.body.message;
    expect(photo).toMatchObject({ filename: expect.stringMatching(/\.webp$/), width: 320, height: 240 });
    const stored = await t.services.storage.get(photo.filename);
    expect((await sharp(stored!).metadata()).exif).toBeUndefined();
    expect((await ledger(me.user.id)).map((r) => r.reason)).toEqual(['demo_grant', 'chat_photo']);

    expect(await fetchPhoto(me.client, photo.filename)).toBe(200);
    expect(await fetchPhoto(other.client, photo.thumb_filename)).toBe(200);
    expect(await fetchPhoto(stranger.client, photo.filename)).toBe(404);
    expect(await fetchPhoto(null, photo.filename)).toBe(404);

    // Not enough credits for a second one: refused, nothing stored or charged.
    const short = await sendPhoto(me.client, other.user.id, await phoneJpeg());
    expect(short.status).toBe(402);
    expect((await ledger(me.user.id)).length).toBe(2);
    // Not a photo at all.
    await give(me.user.id, 10);
    expect((await sendPhoto(me.client, other.user.id, Buffer.from('plain text, not an image'))).status).toBe(415);

    // Moderation reviews it afterwards; rejected, it is gone for both.
    const moderator = t.client({ headers: (await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId] })).bearer });
    const queue = await moderator.get('/api/moderation.php');
    const pending = queue.body.chat_photos.find((p: { filename: string }) => p.filename === photo.filename);
    expect(pending).toBeDefined();
    const decided = await moderator.post('/api/moderation.php', { id: pending.id, action: 'reject', kind: 'chat' });
    expect(decided.body.photo.status).toBe('rejected');
    expect(await fetchPhoto(other.client, photo.filename)).toBe(404);
    const after = await other.client.get(`/api/messages.php?conversation=${res.body.message.conversation_id}`);
    expect(after.body.messages[0]).toMatchObject({ kind: 'photo', photo: null });
  });

  it('a blocked member can neither send gifts nor photos to the blocker', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 100);
    await other.client.post('/api/block.php', { profile_id: me.user.id });
    expect((await me.client.post('/api/gift.php', { profile_id: other.user.id, gift_id: 1 }, { 'idempotency-key': key() })).status).toBe(404);
    expect((await sendPhoto(me.client, other.user.id, await phoneJpeg())).status).toBe(404);
    expect((await ledger(me.user.id)).length).toBe(1);
  });

  it('a message the recipient filters is hidden from them, costs nothing and notifies no one', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 20);
    const put = await other.client.put('/api/notifications.php', { word_filter: ['Idiot', 'send nudes', 'idiot'] });
    expect(put.status).toBe(200);
    expect(put.body.word_filter).toEqual(['idiot', 'send nudes']);

    const hidden = await me.client.post('/api/messages.php', { profile_id: other.user.id, text: 'you IDIOT' }, { 'idempotency-key': key() });
    expect(hidden.status).toBe(201);
    expect(hidden.body).toMatchObject({ credits: 20, message: { filtered: true, text: 'you IDIOT' } });
    await t.services.events.settle();
    // The recipient has no conversation, no unread message and no mail.
    expect((await other.client.get('/api/chats.php')).body.chats).toEqual([]);
    expect((await other.client.get('/api/user.php')).body.user.num_unread_messages).toBe(0);
    expect(t.outbox!.list().filter((m) => m.to === other.user.email && m.kind === 'new_message')).toEqual([]);
    // The sender still sees what they wrote, marked as not delivered.
    const mine = await me.client.get(`/api/messages.php?conversation=${hidden.body.message.conversation_id}`);
    expect(mine.body.messages).toEqual([expect.objectContaining({ filtered: true })]);

    const fine = await me.client.post('/api/messages.php', { profile_id: other.user.id, text: 'sorry, how are you?' }, { 'idempotency-key': key() });
    expect(fine.body.credits).toBe(15);
    const theirs = await other.client.get(`/api/messages.php?conversation=${fine.body.message.conversation_id}`);
    expect(theirs.body.messages.map((m: { text: string }) => m.text)).toEqual(['sorry, how are you?']);
    expect(theirs.body.messages[0].filtered).toBeUndefined();
    expect((await other.client.get('/api/chats.php')).body.chats[0].last_message.text).toBe('sorry, how are you?');
    expect((await ledger(me.user.id)).map((r) => r.reason)).toEqual(['demo_grant', 'message']);

    for (const bad of [Array.from({ length: 51 }, (_, i) => `word${i}`), ['a'], ['x'.repeat(41)], 'idiot', [1], ['bad\u0000word']]) {
      expect((await other.client.put('/api/notifications.php', { word_filter: bad })).status, JSON.stringify(bad).slice(0, 40)).toBe(400);
    }
    expect((await other.client.get('/api/notifications.php')).body.word_filter).toEqual(['idiot', 'send nudes']);
  });

  it('messages cost at least the minimum of the sender\'s country', async () => {
    await t.database.db.update(sites).set({ minimumMessageCosts: { CH: { costs: 8, currency: 'CHF' } } }).where(eq(sites.id, t.siteId));
    await t.services.settings.invalidateSites();
    try {
      const swiss = await signUp(t);
      const dutch = await signUp(t);
      const other = await signUp(t);
      await t.database.db.update(profiles).set({ country: 'CH' }).where(eq(profiles.userId, swiss.user.id));
      await t.database.db.update(profiles).set({ country: 'NL' }).where(eq(profiles.userId, dutch.user.id));
      await give(swiss.user.id, 20);
      await give(dutch.user.id, 20);
      const paid = await swiss.client.post('/api/messages.php', { profile_id: other.user.id, text: 'Grüezi' }, { 'idempotency-key': key() });
      expect(paid.body.credits).toBe(12);
      expect((await swiss.client.get('/api/gifts.php')).body.prices).toMatchObject({ message: 8, credit_price: { currency: 'CHF' } });
      expect((await dutch.client.post('/api/messages.php', { profile_id: other.user.id, text: 'Hoi' }, { 'idempotency-key': key() })).body.credits).toBe(15);
    } finally {
      await t.database.db.update(sites).set({ minimumMessageCosts: {} }).where(eq(sites.id, t.siteId));
      await t.services.settings.invalidateSites();
    }
  });

  it('sends no mail for a message while its recipient is looking at the conversation', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 50);
    await give(other.user.id, 50);
    // The other member starts the conversation and keeps it open on screen.
    const first = await other.client.post('/api/messages.php', { profile_id: me.user.id, text: 'hi there' }, { 'idempotency-key': key() });
    const convId = first.body.message.conversation_id;
    expect((await other.client.post('/api/viewing.php', { conversation: convId })).status).toBe(200);
    const mails = () => t.outbox!.list().filter((m) => m.to === other.user.email && m.kind === 'new_message').length;
    await me.client.post('/api/messages.php', { profile_id: other.user.id, text: 'while you look' }, { 'idempotency-key': key() });
    await t.services.events.settle();
    expect(mails()).toBe(0);
    // Looking away: the next one is mailed.
    await other.client.post('/api/viewing.php', { conversation: null });
    await me.client.post('/api/messages.php', { profile_id: other.user.id, text: 'are you there?' }, { 'idempotency-key': key() });
    await t.services.events.settle();
    expect(mails()).toBe(1);
    // A report lapses by itself when the tab stops repeating it.
    await other.client.post('/api/viewing.php', { conversation: convId });
    t.clock.advance(VIEWING_TTL_MS + 3_600_000);
    await me.client.post('/api/messages.php', { profile_id: other.user.id, text: 'still there?' }, { 'idempotency-key': key() });
    await t.services.events.settle();
    expect(mails()).toBe(2);
    // Only a member of the conversation can say they look at it.
    expect((await t.client().post('/api/viewing.php', { conversation: convId })).status).toBe(403);
    const stranger = await signUp(t);
    expect((await stranger.client.post('/api/viewing.php', { conversation: convId })).status).toBe(404);
    expect((await stranger.client.post('/api/viewing.php', { conversation: 'x' })).status).toBe(400);
  });

  it('removes every conversation with a profile by its id, and warns when history is cut off', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 10);
    const sent = await me.client.post('/api/messages.php', { profile_id: other.user.id, text: 'hello' }, { 'idempotency-key': key() });
    const convId = sent.body.message.conversation_id;
    const removed = await me.client.delete('/api/chat.php', { profile_id: other.user.id });
    expect(removed.body).toEqual({ ok: true, conversations: [convId] });
    expect((await me.client.get('/api/chats.php')).body.chats).toEqual([]);
    expect((await other.client.get('/api/chats.php')).body.chats).toHaveLength(1);
    expect((await me.client.delete('/api/chat.php', { profile_id: 2_147_483_647 })).status).toBe(404);
    expect((await me.client.delete('/api/chat.php', { profile_id: '1e400' })).status).toBe(400);

    expect((await other.client.get(`/api/messages.php?conversation=${convId}`)).body.truncated).toBe(false);
    await t.database.db.insert(messages).values(Array.from({ length: CHAT_HISTORY_LIMIT }, (_, i) => ({
      conversationId: convId, senderId: me.user.id, body: `old ${i}`, creditsSpent: 0,
    })));
    const long = await other.client.get(`/api/messages.php?conversation=${convId}`);
    expect(long.body.truncated).toBe(true);
    expect(long.body.messages).toHaveLength(CHAT_HISTORY_LIMIT);
    expect(long.body.messages.at(-1).text).toBe(`old ${CHAT_HISTORY_LIMIT - 1}`);
    const [row] = await t.database.db.select().from(conversationMembers)
      .where(and(eq(conversationMembers.conversationId, convId), eq(conversationMembers.userId, other.user.id)));
    expect(row.unreadCount).toBe(0);
    expect(await t.database.db.$count(users, eq(users.id, other.user.id))).toBe(1);
  });
});
