import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likes, photos, profiles, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

type Card = { id: number; gender: string; main_image: { status: string } | null };

describe.each(DATABASE_KINDS)('swipe game, match finder and the new-like overlay on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  let photoNumber = 0;
  /** Gives a member a main photo in `status` (the deck deals faces only). */
  async function withPhoto(userId: number, status: 'active' | 'pending' | 'rejected' = 'active') {
    const name = `deck-${kind}-${++photoNumber}`;
    const [photo] = await t.database.db.insert(photos).values({ userId, filename: `${name}.webp`, thumbFilename: `${name}-t.webp`, status, width: 500, height: 600 }).returning({ id: photos.id });
    await t.database.db.update(profiles).set({ mainPhotoId: photo.id }).where(eq(profiles.userId, userId));
  }

  /** A man looking for women, and `n` women with a photo for his deck. */
  async function player(n: number, country = 'NL') {
    const me = await signUp(t, { gender: 'male', country });
    const women = [];
    for (let i = 0; i < n; i++) {
      const woman = (await signUp(t, { gender: 'female', country })).user;
      await withPhoto(woman.id);
      women.push(woman);
    }
    return { ...me, women };
  }
  const deck = async (client: TestClient) => (await client.get('/api/swipe-game.php')).body as { profiles: Card[]; likes_left: number; resets_at: string };
  const swipe = (client: TestClient, id: number, action: 'like' | 'pass') => client.post('/api/swipe-game.php', { profile_id: id, action });
  const likeCount = async (userId: number) => t.database.db.$count(likes, eq(likes.likerId, userId));

  it('deals cards of the wanted gender, never oneself, the liked, the passed, the invisible, the blocked or the deleted', async () => {
    t.clock.set('2026-06-01T12:00:00Z');
    const { client, user, women } = await player(5);
    const man = (await signUp(t, { gender: 'male' })).user;
    const [liked, passed, invisible, blocker, deleted] = women;
    await t.database.db.update(users).set({ invisible: true }).where(eq(users.id, invisible.id));
    await t.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted.id));
    const blockerClient = t.client();
    await blockerClient.login(blocker.email, 'correct horse battery');
    expect((await blockerClient.post('/api/block.php', { profile_id: user.id })).status).toBeLessThan(300);
    expect((await swipe(client, liked.id, 'like')).status).toBe(200);
    expect((await swipe(client, passed.id, 'pass')).status).toBe(200);

    const ids = (await deck(client)).profiles.map((p) => p.id);
    for (const gone of [user.id, man.id, liked.id, passed.id, invisible.id, blocker.id, deleted.id]) expect(ids).not.toContain(gone);
    expect((await deck(client)).profiles.every((p) => p.gender === 'female')).toBe(true);
    // Passing someone who may not be seen is refused like an unknown member.
    expect((await swipe(client, invisible.id, 'pass')).status).toBe(404);
  });

  it('deals no member without a photo that may be shown: none, one waiting for approval, or a rejected one', async () => {
    const { client, women } = await player(1);
    const without = (await signUp(t, { gender: 'female' })).user;
    const pending = (await signUp(t, { gender: 'female' })).user;
    const rejected = (await signUp(t, { gender: 'female' })).user;
    await withPhoto(pending.id, 'pending');
    await withPhoto(rejected.id, 'rejected');
    const cards = (await deck(client)).profiles;
    expect(cards.map((p) => p.id)).toContain(women[0].id);
    for (const faceless of [without, pending, rejected]) expect(cards.map((p) => p.id)).not.toContain(faceless.id);
    expect(cards.every((p) => p.main_image?.status === 'active')).toBe(true);
  });

  it('gives a card the rounded distance when both members shared a place, in the viewer\'s unit, and never the place', async () => {
    const { client, user, women } = await player(2);
    const place = (id: number, lat: number | null, lon: number | null) =>
      t.database.db.update(profiles).set({ latitude: lat, longitude: lon }).where(eq(profiles.userId, id));
    await place(women[0].id, 52.0907, 5.1214); // Utrecht
    const distances = async () => Object.fromEntries((await deck(client)).profiles.map((p) => [p.id, (p as Card & { distance?: unknown }).distance]));
    // The player shared no place yet: no distances at all.
    expect((await distances())[women[0].id]).toBeUndefined();

    await place(user.id, 52.3731, 4.8922); // Amsterdam, about 35 km away
    const shown = await distances();
    expect(shown[women[0].id]).toEqual({ value: 35, unit: 'km', less_than: false });
    expect(shown[women[1].id]).toBeUndefined();
    const text = JSON.stringify((await client.get('/api/swipe-game.php')).body);
    expect(text).not.toMatch(/latitude|longitude|"lat"|"lon"|52\.09/);
    // A card brought back by undo keeps its distance.
    expect((await swipe(client, women[0].id, 'pass')).status).toBe(200);
    expect((await client.delete('/api/swipe-game.php')).body.profile).toMatchObject({ id: women[0].id, distance: { value: 35, unit: 'km' } });

    // An English-speaking member in Britain reads miles.
    await t.database.db.update(users).set({ language: 'en' }).where(eq(users.id, user.id));
    await t.database.db.update(profiles).set({ country: 'GB' }).where(eq(profiles.userId, user.id));
    expect((await distances())[women[0].id]).toMatchObject({ unit: 'mi', value: 20 });
  });

  it('4 likes a day: the fifth is refused with the time of the next like and changes nothing; the next local day gives 4 more', async () => {
    // 21:30 UTC on 1 June is 23:30 in Amsterdam: the member's day ends in 30 minutes.
    t.clock.set('2026-06-01T21:30:00Z');
    const { client, user, women } = await player(6);
    expect((await deck(client)).likes_left).toBe(4);
    for (const woman of women.slice(0, 4)) expect((await swipe(client, woman.id, 'like')).status).toBe(200);
    const state = await deck(client);
    expect(state).toMatchObject({ likes_left: 0, resets_at: '2026-06-01T22:00:00.000Z' });

    const fifth = await swipe(client, women[4].id, 'like');
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.code).toBe('like_limit_reached');
    expect(fifth.body.error.message).toContain('4');
    expect(fifth.headers.get('retry-after')).toBe('1800');
    expect(await likeCount(user.id)).toBe(4);
    // Liking one already liked again is harmless and costs nothing.
    expect((await swipe(client, women[0].id, 'like')).status).toBe(200);

    // Midnight in Amsterdam, not in UTC.
    t.clock.set('2026-06-01T22:00:01Z');
    expect((await deck(client)).likes_left).toBe(4);
    expect((await swipe(client, women[4].id, 'like')).status).toBe(200);
    expect(await likeCount(user.id)).toBe(5);
  });

  it('parallel likes cannot pass the daily limit together', async () => {
    t.clock.set('2026-06-02T10:00:00Z');
    const { client, user, women } = await player(8);
    const answers = await Promise.all(women.map((w) => swipe(client, w.id, 'like')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    expect(await likeCount(user.id)).toBe(4);
  });

  it('undo takes back the last pass and puts its card back', async () => {
    t.clock.set('2026-06-03T10:00:00Z');
    const { client, women } = await player(3);
    expect((await client.delete('/api/swipe-game.php')).body.error.code).toBe('nothing_to_undo');
    await swipe(client, women[0].id, 'pass');
    t.clock.advance(1000);
    await swipe(client, women[1].id, 'pass');
    const undone = await client.delete('/api/swipe-game.php');
    expect(undone.status).toBe(200);
    expect(undone.body.profile.id).toBe(women[1].id);
    const ids = (await deck(client)).profiles.map((p) => p.id);
    expect(ids).toContain(women[1].id);
    expect(ids).not.toContain(women[0].id);
  });

  it('refuses bad input and visitors without changing anything', async () => {
    const { client, user, women } = await player(1);
    for (const body of [{ profile_id: 2147483648, action: 'like' }, { profile_id: women[0].id, action: 'superlike' }, { profile_id: '1e2', action: 'like' }, { action: 'pass' }]) {
      const res = await client.post('/api/swipe-game.php', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
    }
    expect((await swipe(client, user.id, 'pass')).body.error.code).toBe('cannot_like_self');
    expect((await t.client().get('/api/swipe-game.php')).body.error.code).toBe('authentication_required');
    expect((await t.client().get('/api/match-finder.php')).status).toBe(403);
    expect((await t.client().get('/api/auto-like.php')).status).toBe(403);
    expect(await likeCount(user.id)).toBe(0);
  });

  it('the match finder asks first, then ranks who fits the answers and says why', async () => {
    t.clock.set('2026-06-04T10:00:00Z');
    const me = await signUp(t, { gender: 'male', country: 'DE', date_of_birth: '1990-01-01' });
    const fits = (await signUp(t, { gender: 'female', country: 'DE', date_of_birth: '1992-01-01' })).user;
    const active = (await signUp(t, { gender: 'female', country: 'DE', date_of_birth: '1991-01-01' })).user;
    const tooOld = (await signUp(t, { gender: 'female', country: 'DE', date_of_birth: '1950-01-01' })).user;
    const wrongGender = (await signUp(t, { gender: 'male', country: 'DE', date_of_birth: '1990-01-01' })).user;
    const elsewhere = (await signUp(t, { gender: 'female', country: 'FR', date_of_birth: '1990-01-01' })).user;
    await t.database.db.update(users).set({ lastActiveAt: t.clock() }).where(eq(users.id, active.id));
    await t.database.db.update(profiles).set({ interests: ['music', 'wine'] }).where(eq(profiles.userId, me.user.id));
    await t.database.db.update(profiles).set({ interests: ['wine'] }).where(eq(profiles.userId, active.id));

    const first = (await me.client.get('/api/match-finder.php')).body;
    expect(first).toMatchObject({ saved: false, profiles: [], preferences: { gender: 'female', min_age: 26, max_age: 46 } });

    const bad = await me.client.put('/api/match-finder.php', { gender: 'female', min_age: 40, max_age: 30, max_distance_km: null });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('age_range_invalid');
    expect((await me.client.get('/api/match-finder.php')).body.saved).toBe(false);

    expect((await me.client.put('/api/match-finder.php', { gender: 'female', min_age: 25, max_age: 40, max_distance_km: null })).status).toBe(200);
    const found = (await me.client.get('/api/match-finder.php')).body;
    const ids = found.profiles.map((p: { id: number }) => p.id);
    expect(ids.slice(0, 2)).toEqual([active.id, fits.id]);
    for (const gone of [tooOld.id, wrongGender.id, elsewhere.id]) expect(ids).not.toContain(gone);
    expect(found.profiles[0].reasons.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(['age', 'active', 'interests']));
    expect(found.profiles[0].reasons).toContainEqual({ code: 'interests', value: 1 });
  });

  it('auto-like: the newest like not looked at yet, then the next one, then none', async () => {
    t.clock.set('2026-06-05T10:00:00Z');
    const me = await signUp(t);
    expect((await me.client.get('/api/auto-like.php')).body).toEqual({ profile: null });
    const first = await signUp(t);
    const second = await signUp(t);
    await first.client.post('/api/like.php', { profile_id: me.user.id });
    t.clock.advance(1000);
    await second.client.post('/api/like.php', { profile_id: me.user.id });
    let res = (await me.client.get('/api/auto-like.php')).body;
    expect(res.profile).toMatchObject({ id: second.user.id, like_new: true, match: false });
    // Opening the liker's profile marks the like as seen.
    await me.client.get(`/api/profile.php?id=${second.user.id}`);
    res = (await me.client.get('/api/auto-like.php')).body;
    expect(res.profile.id).toBe(first.user.id);
    await me.client.post('/api/like.php', { profile_id: first.user.id });
    expect((await me.client.get('/api/auto-like.php')).body.profile).toMatchObject({ id: first.user.id, match: true });
    await me.client.get(`/api/profile.php?id=${first.user.id}`);
    expect((await me.client.get('/api/auto-like.php')).body).toEqual({ profile: null });
  });
});
