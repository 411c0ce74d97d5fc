import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likes, photos, profiles, sites } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('hiding fictional profiles on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  const ids = (body: { profiles: { id: number }[] }) => body.profiles.map((p) => p.id);

  it('a member who hides them no longer meets fictional profiles in search, the swipe deck or the like overlay; the site sets the default', async () => {
    const fictional = await signUp(t, { name: 'Fabiola', gender: 'female' });
    const real = await signUp(t, { name: 'Rosalie', gender: 'female' });
    await t.database.db.update(profiles).set({ fictional: true }).where(eq(profiles.userId, fictional.user.id));
    // The swipe deck deals faces only: the fictional profile has a photo that may be shown.
    const [photo] = await t.database.db.insert(photos)
      .values({ userId: fictional.user.id, filename: `fabiola-${kind}.webp`, thumbFilename: `fabiola-${kind}-t.webp`, status: 'active', width: 500, height: 600 })
      .returning({ id: photos.id });
    await t.database.db.update(profiles).set({ mainPhotoId: photo.id }).where(eq(profiles.userId, fictional.user.id));
    const member = await signUp(t, { name: 'Manfred', gender: 'male' });
    await t.database.db.insert(likes).values({ likerId: fictional.user.id, likedId: member.user.id });

    const look = async () => {
      const [search, deck, overlay] = await Promise.all(['/api/members.php', '/api/swipe-game.php', '/api/auto-like.php'].map(async (path) => (await member.client.get(path)).body));
      return { search: ids(search), deck: ids(deck), overlay, cards: [...search.profiles, ...deck.profiles] as { id: number; fictional: boolean }[] };
    };
    expect((await member.client.get('/api/notifications.php')).body.hide_fictional).toBe(false);
    const shown = await look();
    expect(shown.search).toEqual(expect.arrayContaining([fictional.user.id, real.user.id]));
    expect(shown.deck).toContain(fictional.user.id);
    expect(JSON.stringify(shown.overlay)).toContain(`"id":${fictional.user.id}`);
    // Each surface carries the marking the member's pages show (FictionalNotice), and only on the fictional profile.
    expect(shown.cards.filter((p) => p.fictional).map((p) => p.id)).toEqual([fictional.user.id, fictional.user.id]);
    expect(JSON.stringify(shown.overlay)).toContain('"fictional":true');

    const put = await member.client.put('/api/notifications.php', { hide_fictional: true });
    expect(put.status).toBe(200);
    expect(put.body.hide_fictional).toBe(true);
    const hidden = await look();
    expect(hidden.search).toContain(real.user.id);
    expect(hidden.search).not.toContain(fictional.user.id);
    expect(hidden.deck).not.toContain(fictional.user.id);
    expect(JSON.stringify(hidden.overlay)).not.toContain(`"id":${fictional.user.id}`);
    // Bad input changes nothing.
    expect((await member.client.put('/api/notifications.php', { hide_fictional: 'yes' })).status).toBe(400);
    expect((await member.client.get('/api/notifications.php')).body.hide_fictional).toBe(true);

    // A site that hides them by default: a member who never chose does not see them; one who chose keeps their choice.
    await t.database.db.update(sites).set({ hideFictionalDefault: true }).where(eq(sites.id, t.siteId));
    const newcomer = await signUp(t, { name: 'Norbert', gender: 'male' });
    expect((await newcomer.client.get('/api/notifications.php')).body.hide_fictional).toBe(true);
    expect(ids((await newcomer.client.get('/api/members.php')).body)).not.toContain(fictional.user.id);
    await member.client.put('/api/notifications.php', { hide_fictional: false });
    expect(ids((await member.client.get('/api/members.php')).body)).toContain(fictional.user.id);
  });
});
