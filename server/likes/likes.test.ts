import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { profiles, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('likes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  it('likes, matches, lists new likes first and clears the flag when the liker\'s profile is opened', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const c = await signUp(t);
    expect((await a.client.post('/api/like.php', { profile_id: b.user.id })).body).toEqual({ match: false });
    expect((await a.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
    expect((await c.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(200);

    let likes = (await b.client.get('/api/likes.php')).body;
    expect(likes.profiles).toEqual([]);
    expect(likes.liked_by.map((p: { id: number; like_new: boolean }) => [p.id, p.like_new]).sort()).toEqual([[a.user.id, true], [c.user.id, true]].sort());
    expect((await b.client.get('/api/user.php')).body.user.num_new_likes).toBe(2);

    const profile = (await b.client.get(`/api/profile.php?id=${a.user.id}`)).body.profile;
    expect(profile).toMatchObject({ liked: false, liked_me: true });
    likes = (await b.client.get('/api/likes.php')).body;
    expect(likes.liked_by[0]).toMatchObject({ id: c.user.id, like_new: true });
    expect(likes.liked_by[1]).toMatchObject({ id: a.user.id, like_new: false });
    expect((await b.client.get('/api/user.php')).body.user.num_new_likes).toBe(1);

    expect((await b.client.post('/api/like.php', { profile_id: a.user.id })).body).toEqual({ match: true });
    expect((await b.client.get('/api/likes.php')).body.profiles.map((p: { id: number }) => p.id)).toEqual([a.user.id]);
  });

  it('opening the profile of a liker one has blocked leaves the like unread, on the API as on the page', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    expect((await b.client.post('/api/block.php', { profile_id: a.user.id })).status).toBe(200);
    expect((await b.client.get(`/api/profile.php?id=${a.user.id}`)).body.profile).toMatchObject({ blocked: true, liked_me: true });
    expect((await b.client.delete('/api/block.php', { profile_id: a.user.id })).status).toBe(200);
    expect((await b.client.get('/api/likes.php')).body.liked_by).toMatchObject([{ id: a.user.id, like_new: true }]);
  });

  it('counts in the new-likes badge exactly the likes the likes list shows', async () => {
    const b = await signUp(t);
    const likers = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    for (const liker of likers) expect((await liker.client.post('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
    const [disabled, invisible, deleted] = likers;
    // A liker whose profile is disabled, one who went invisible and one who left are in no list, so in no badge.
    await t.database.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled.user.id));
    await t.database.db.update(users).set({ invisible: true }).where(eq(users.id, invisible.user.id));
    await t.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted.user.id));
    const listed = (await b.client.get('/api/likes.php')).body.liked_by as { id: number; like_new: boolean }[];
    expect(listed.map((p) => p.id)).toEqual([likers[3].user.id]);
    expect((await b.client.get('/api/user.php')).body.user.num_new_likes).toBe(listed.filter((p) => p.like_new).length);
  });

  it('unlikes', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    expect((await a.client.delete('/api/like.php', { profile_id: b.user.id })).status).toBe(200);
    expect((await a.client.get('/api/likes.php')).body.profiles).toEqual([]);
    expect((await b.client.get('/api/likes.php')).body.liked_by).toEqual([]);
  });

  it('refuses liking oneself, unknown members and visitors', async () => {
    const a = await signUp(t);
    expect((await a.client.post('/api/like.php', { profile_id: a.user.id })).body.error.code).toBe('cannot_like_self');
    expect((await a.client.post('/api/like.php', { profile_id: 424242 })).status).toBe(404);
    expect((await a.client.post('/api/like.php', { profile_id: 'abc' })).status).toBe(400);
    const visitor = await t.client().post('/api/like.php', { profile_id: a.user.id });
    expect(visitor.status).toBe(403);
    expect(visitor.body.error.code).toBe('authentication_required');
    expect((await t.client().get('/api/likes.php')).status).toBe(403);
  });
});
