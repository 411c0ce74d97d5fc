import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('blocks on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  const give = (userId: number, credits: number) => t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', `grant-${userId}`));

  it('hides a blocked pair from each other everywhere; the blocked member only ever gets "not found"', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await give(a.user.id, 50);
    await give(b.user.id, 50);
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await b.client.post('/api/like.php', { profile_id: a.user.id });
    const sent = await b.client.post('/api/messages.php', { profile_id: a.user.id, text: 'Hi A' }, { 'idempotency-key': 'block-test-0001' });
    const conversationId = sent.body.message.conversation_id;
    await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'Hi B' }, { 'idempotency-key': 'block-test-0000' });
    expect((await a.client.get('/api/chats.php')).body.chats).toHaveLength(1);
    expect((await b.client.get('/api/user.php')).body.user).toMatchObject({ num_unread_messages: 1, num_new_likes: 1 });

    expect((await a.client.post('/api/block.php', { profile_id: b.user.id })).body).toEqual({ blocked: true });
    // Blocking twice is harmless.
    expect((await a.client.post('/api/block.php', { profile_id: b.user.id })).status).toBe(200);

    // B: A does not exist.
    const notFound = { error: { code: 'not_found', message: expect.any(String) } };
    const profile = await b.client.get(`/api/profile.php?id=${a.user.id}`);
    expect([profile.status, profile.body]).toEqual([404, notFound]);
    expect((await b.client.post('/api/like.php', { profile_id: a.user.id })).status).toBe(404);
    expect((await b.client.post('/api/messages.php', { profile_id: a.user.id, text: 'Hello?' }, { 'idempotency-key': 'block-test-0002' })).status).toBe(404);
    expect((await b.client.get(`/api/messages.php?conversation=${conversationId}`)).status).toBe(404);
    expect((await b.client.get(`/api/messages.php?profile=${a.user.id}`)).status).toBe(404);
    expect((await b.client.get('/api/chats.php')).body.chats).toEqual([]);
    expect((await b.client.get('/api/likes.php')).body).toEqual({ profiles: [], liked_by: [] });
    // Not even the badges give it away.
    expect((await b.client.get('/api/user.php')).body.user).toMatchObject({ num_unread_messages: 0, num_new_likes: 0 });
    // B cannot block back (that would reveal A) and cannot lift A's block.
    expect((await b.client.post('/api/block.php', { profile_id: a.user.id })).status).toBe(404);
    expect((await b.client.delete('/api/block.php', { profile_id: a.user.id })).status).toBe(404);

    // A: sees B's profile marked as blocked (to unblock), but cannot contact B, and B leaves A's lists.
    expect((await a.client.get(`/api/profile.php?id=${b.user.id}`)).body.profile).toMatchObject({ id: b.user.id, blocked: true });
    expect((await a.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(404);
    expect((await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'x' }, { 'idempotency-key': 'block-test-0003' })).status).toBe(404);
    expect((await a.client.get('/api/chats.php')).body.chats).toEqual([]);
    expect((await a.client.get('/api/likes.php')).body).toEqual({ profiles: [], liked_by: [] });
    expect((await a.client.get('/api/block.php')).body.profiles.map((p: { id: number }) => p.id)).toEqual([b.user.id]);

    // Unblocking restores everything that was there.
    expect((await a.client.delete('/api/block.php', { profile_id: b.user.id })).body).toEqual({ blocked: false });
    expect((await b.client.get(`/api/profile.php?id=${a.user.id}`)).body.profile).toMatchObject({ id: a.user.id, blocked: false, liked: true, liked_me: true });
    expect((await b.client.get('/api/chats.php')).body.chats).toHaveLength(1);
    // Opening A's profile just now cleared A's new-like flag; the unread message counts again.
    expect((await b.client.get('/api/user.php')).body.user).toMatchObject({ num_unread_messages: 1, num_new_likes: 0 });
    expect((await a.client.get('/api/likes.php')).body.liked_by.map((p: { id: number }) => p.id)).toEqual([b.user.id]);
    expect((await a.client.get('/api/block.php')).body.profiles).toEqual([]);
    expect((await a.client.delete('/api/block.php', { profile_id: b.user.id })).status).toBe(404);
  });

  it('refuses blocking yourself, unknown members and visitors', async () => {
    const a = await signUp(t);
    const self = await a.client.post('/api/block.php', { profile_id: a.user.id });
    expect([self.status, self.body.error]).toEqual([400, { code: 'cannot_block_self', message: 'You cannot block yourself.' }]);
    expect((await a.client.post('/api/block.php', { profile_id: 987654 })).status).toBe(404);
    expect((await a.client.post('/api/block.php', { profile_id: 'abc' })).status).toBe(400);
    expect((await t.client().post('/api/block.php', { profile_id: a.user.id })).status).toBe(403);
  });
});
