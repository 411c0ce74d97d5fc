import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, ne } from 'drizzle-orm';
import { distanceUnit, filterRadiusKm, roundDistance } from '#common/distance.ts';
import { SEARCH_PAGE_SIZE } from '#common/constants.ts';
import { broadFilterKey } from './search.service.ts';
import { profiles, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

const AMSTERDAM = { lat: 52.3676, lon: 4.9041 };
const LONDON = { lat: 51.5074, lon: -0.1278 };

describe('distance rules', () => {
  it('reads miles for English in Britain and the United States, kilometres otherwise', () => {
    expect(distanceUnit('en', 'GB')).toBe('mi');
    expect(distanceUnit('en', 'US')).toBe('mi');
    expect(distanceUnit('en', 'NL')).toBe('km');
    expect(distanceUnit('pl', 'GB')).toBe('km');
    expect(distanceUnit('en', null)).toBe('km');
  });

  it('rounds as a card says it: under 1, whole units under 10, fives under 100, tens beyond', () => {
    expect(roundDistance(0.4, 'km')).toEqual({ value: 1, unit: 'km', less_than: true });
    expect(roundDistance(3.4, 'km')).toEqual({ value: 3, unit: 'km', less_than: false });
    expect(roundDistance(9.71, 'km')).toEqual({ value: 10, unit: 'km', less_than: false });
    expect(roundDistance(17.64, 'km')).toEqual({ value: 20, unit: 'km', less_than: false });
    expect(roundDistance(576.09, 'km')).toEqual({ value: 580, unit: 'km', less_than: false });
    // 76.16 km are 47.3 miles.
    expect(roundDistance(76.16, 'mi')).toEqual({ value: 45, unit: 'mi', less_than: false });
    expect(roundDistance(1.2, 'mi')).toEqual({ value: 1, unit: 'mi', less_than: true });
  });

  it('remembers "1000+" within a distance per place: members of one town share it, another town counts its own', () => {
    const f = { gender: 'female', min_age: 18, max_age: 99, distance: '100km' } as const;
    const amsterdam = broadFilterKey(f, 1, false, false, AMSTERDAM);
    expect(broadFilterKey({ ...f }, 1, false, false, { ...AMSTERDAM })).toBe(amsterdam);
    expect(broadFilterKey(f, 1, false, false, LONDON)).not.toBe(amsterdam);
    expect(broadFilterKey({ ...f, distance: '50km' }, 1, false, false, AMSTERDAM)).not.toBe(amsterdam);
    // Without a distance the place does not matter: one memo for the whole site.
    const { distance: _, ...plain } = f;
    expect(broadFilterKey(plain, 1, false, false, AMSTERDAM)).toBe(broadFilterKey(plain, 1));
  });

  it('turns a filter into kilometres', () => {
    expect(filterRadiusKm('25km')).toBe(25);
    expect(filterRadiusKm('10mi')).toBeCloseTo(16.09344, 5);
  });
});

type Card = { id: number; gender: string; distance?: { value: number; unit: string; less_than: boolean } };
type Page = { profiles: Card[]; numResults: number | null; next_cursor: string | null; distance_unit: string | null };

/** Places with known distances from Amsterdam (km) and London (mi), haversine on a 6371 km earth. */
const PLACES = {
  sameTown: { ...AMSTERDAM, km: 0, mi: 222.38 },
  zaandam: { lat: 52.442, lon: 4.8292, km: 9.71, mi: 220.59 },
  haarlem: { lat: 52.3874, lon: 4.6462, km: 17.64, mi: 212.17 },
  utrecht: { lat: 52.0907, lon: 5.1214, km: 34.16, mi: 227.83 },
  rotterdam: { lat: 51.9244, lon: 4.4777, km: 57.23, mi: 199.21 },
  berlin: { lat: 52.52, lon: 13.405, km: 576.09, mi: 578.85 },
  london: { ...LONDON, km: 357.89, mi: 0 },
  brighton: { lat: 50.8225, lon: -0.1372, km: 388.19, mi: 47.32 },
};
type PlaceName = keyof typeof PLACES;

describe.each(DATABASE_KINDS)('distance in member search on %s', (kind) => {
  let t: TestApp;
  /** Member id per named place; `near`: thirty more within 4 km of Amsterdam, for paging. */
  const at = {} as Record<PlaceName, number>;
  let near: number[] = [];
  let unlocated: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 60 });
    const others = (await t.database.db.select({ id: profiles.userId }).from(profiles).where(ne(profiles.userId, t.demoUserId)).orderBy(profiles.userId)).map((r) => r.id);
    const names = Object.keys(PLACES) as PlaceName[];
    for (const [i, name] of names.entries()) {
      at[name] = others[i];
      await t.database.db.update(profiles).set({ latitude: PLACES[name].lat, longitude: PLACES[name].lon }).where(eq(profiles.userId, others[i]));
    }
    near = others.slice(names.length, names.length + 30);
    for (const [i, id] of near.entries()) {
      await t.database.db.update(profiles).set({ latitude: AMSTERDAM.lat + (i + 1) * 0.001, longitude: AMSTERDAM.lon }).where(eq(profiles.userId, id));
    }
    unlocated = others.slice(names.length + 30);
  });
  afterAll(() => t.close());

  const placeDemo = (p: { lat: number; lon: number } | null) =>
    t.database.db.update(profiles).set({ latitude: p?.lat ?? null, longitude: p?.lon ?? null }).where(eq(profiles.userId, t.demoUserId));

  async function member(p: { lat: number; lon: number } | null = AMSTERDAM, language = 'en', country = 'NL') {
    await placeDemo(p);
    await t.database.db.update(users).set({ language }).where(eq(users.id, t.demoUserId));
    await t.database.db.update(profiles).set({ country }).where(eq(profiles.userId, t.demoUserId));
    const client = t.client();
    await client.login();
    return client;
  }

  async function all(client: ReturnType<TestApp['client']>, query: string) {
    const first = await client.get<Page>(`/api/members.php?${query}`);
    expect(first.status).toBe(200);
    const seen = [...first.body.profiles];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const next = (await client.get<Page>(`/api/members.php?${query}&cursor=${cursor}`)).body;
      seen.push(...next.profiles);
      cursor = next.next_cursor;
    }
    return { first: first.body, seen };
  }

  it('shows the rounded distance on the cards of members who shared a location, and none on the others', async () => {
    const client = await member();
    const { first, seen } = await all(client, 'min_age=18&max_age=99');
    expect(first.distance_unit).toBe('km');
    const byId = new Map(seen.map((p) => [p.id, p]));
    expect(byId.get(at.sameTown)!.distance).toEqual({ value: 1, unit: 'km', less_than: true });
    expect(byId.get(at.zaandam)!.distance).toEqual({ value: 10, unit: 'km', less_than: false });
    expect(byId.get(at.haarlem)!.distance).toEqual({ value: 20, unit: 'km', less_than: false });
    expect(byId.get(at.utrecht)!.distance).toEqual({ value: 35, unit: 'km', less_than: false });
    expect(byId.get(at.rotterdam)!.distance).toEqual({ value: 55, unit: 'km', less_than: false });
    expect(byId.get(at.berlin)!.distance).toEqual({ value: 580, unit: 'km', less_than: false });
    expect(byId.get(at.london)!.distance).toEqual({ value: 360, unit: 'km', less_than: false });
    for (const id of unlocated) expect(byId.get(id)!.distance).toBeUndefined();
  });

  it('shows no distances to a member who shared no location, nor to a visitor', async () => {
    const client = await member(null);
    const { first, seen } = await all(client, 'min_age=18&max_age=99');
    expect(first.distance_unit).toBeNull();
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.every((p) => p.distance === undefined)).toBe(true);
    const visitor = (await t.client().get<Page>('/api/members.php?min_age=18&max_age=99')).body;
    expect(visitor.distance_unit).toBeNull();
    expect(visitor.profiles.every((p) => p.distance === undefined)).toBe(true);
  });

  it('reads miles for an English-speaking member in Britain', async () => {
    const client = await member(LONDON, 'en', 'GB');
    const { first, seen } = await all(client, 'min_age=18&max_age=99');
    expect(first.distance_unit).toBe('mi');
    const byId = new Map(seen.map((p) => [p.id, p]));
    expect(byId.get(at.brighton)!.distance).toEqual({ value: 45, unit: 'mi', less_than: false });
    expect(byId.get(at.rotterdam)!.distance).toEqual({ value: 200, unit: 'mi', less_than: false });
    expect(byId.get(at.london)!.distance).toEqual({ value: 1, unit: 'mi', less_than: true });
    // 50 miles (80 km) take in Brighton, 250 miles (402 km) the Netherlands too, never Berlin.
    const within50 = await all(client, 'distance=50mi');
    expect(within50.seen.map((p) => p.id).sort()).toEqual([at.london, at.brighton].sort());
    const within250 = await all(client, 'distance=250mi');
    expect(within250.seen.map((p) => p.id)).not.toContain(at.berlin);
    expect(within250.seen.map((p) => p.id)).toEqual(expect.arrayContaining([at.rotterdam, at.haarlem, at.utrecht, at.sameTown, ...near]));
    // The same member reading Polish sees kilometres.
    await t.database.db.update(users).set({ language: 'pl' }).where(eq(users.id, t.demoUserId));
    expect((await client.get<Page>('/api/members.php?distance=100km')).body.distance_unit).toBe('km');
  });

  it('filters by distance, leaves out members without a location, and pages through every match once', async () => {
    const client = await member();
    const expectIds = async (query: string, ids: number[]) => {
      const { first, seen } = await all(client, query);
      expect(seen.map((p) => p.id).sort()).toEqual([...ids].sort());
      expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
      expect(first.numResults).toBe(ids.length);
      return seen;
    };
    const ten = [at.sameTown, at.zaandam, ...near];
    const seen = await expectIds('distance=10km', ten);
    expect(seen.length).toBeGreaterThan(SEARCH_PAGE_SIZE);
    // Newest first, as any search: the cursor pages on in the same order.
    const created = await t.database.db.select({ id: profiles.userId, createdAt: profiles.createdAt }).from(profiles).where(inArray(profiles.userId, ten));
    const order = [...created].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((r) => r.id);
    expect(seen.map((p) => p.id)).toEqual(order);
    await expectIds('distance=25km', [...ten, at.haarlem]);
    await expectIds('distance=50km', [...ten, at.haarlem, at.utrecht]);
    await expectIds('distance=100km', [...ten, at.haarlem, at.utrecht, at.rotterdam]);
    await expectIds('distance=250km', [...ten, at.haarlem, at.utrecht, at.rotterdam]);
    // Combined with the other filters.
    const rows = await t.database.db.select({ id: profiles.userId, gender: profiles.gender }).from(profiles).where(inArray(profiles.userId, [...ten, at.haarlem]));
    await expectIds('distance=25km&gender=female', rows.filter((r) => r.gender === 'female').map((r) => r.id));
  });

  it('refuses a distance filter that is not offered, or from someone without a location, with the JSON error shape', async () => {
    const client = await member();
    for (const value of ['abc', '30km', '25', '25KM', '-10km', '1e9km', '25km%00', '25mi25km', '%F0%9F%98%80', '25%20km']) {
      const res = await client.get(`/api/members.php?distance=${value}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error.code).toBe('distance_invalid');
      expect(res.body.error.details.distance).toEqual(expect.any(String));
    }
    expect((await client.get('/api/members.php?distance=')).status).toBe(200);

    await placeDemo(null);
    const unplaced = await client.get('/api/members.php?distance=25km');
    expect(unplaced.status).toBe(400);
    expect(unplaced.body.error).toMatchObject({ code: 'location_required', details: { distance: expect.any(String) } });
    const visitor = await t.client().get('/api/members.php?distance=25km');
    expect(visitor.status).toBe(400);
    expect(visitor.body.error.details.distance).toEqual(expect.any(String));
  });

  it('keeps the town of a shared position, stops sharing on request, and never sends anyone coordinates', async () => {
    const client = await member(null);
    // Somewhere in Amsterdam: the town's own place is kept, not the position.
    const shared = await client.put('/api/location.php', { lat: 52.3731, lon: 4.8922 });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({ location: { city: expect.any(String) } });
    const [stored] = await t.database.db.select({ lat: profiles.latitude, lon: profiles.longitude }).from(profiles).where(eq(profiles.userId, t.demoUserId));
    expect(stored.lat).not.toBeNull();
    expect(stored.lat).not.toBe(52.3731);
    expect(Math.abs(stored.lat! - 52.3731)).toBeLessThan(0.2);
    expect((await client.get<Page>('/api/members.php?distance=10km')).body.profiles.length).toBeGreaterThan(0);

    // Nothing any answer carries names a coordinate: not the search, not a profile, not the member's own.
    const texts = [
      JSON.stringify((await client.get('/api/members.php?min_age=18&max_age=99')).body),
      JSON.stringify((await client.get('/api/members.php?distance=250km')).body),
      JSON.stringify((await client.get(`/api/profile.php?id=${at.haarlem}`)).body),
      JSON.stringify((await client.get('/api/profile.php')).body),
      JSON.stringify((await t.client().get(`/api/profile.php?id=${t.demoUserId}`)).body),
    ];
    for (const text of texts) {
      expect(text).not.toMatch(/latitude|longitude|"lat"|"lon"/);
      for (const place of Object.values(PLACES)) expect(text).not.toContain(String(place.lat));
      expect(text).not.toContain(String(stored.lat));
    }

    // Refused positions change nothing.
    for (const body of [{ lat: 91, lon: 0 }, { lat: 0, lon: 181 }, { lat: 'north', lon: 4 }, { lat: 52 }, {}, { lat: null, lon: null }]) {
      const res = await client.put('/api/location.php', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toEqual(expect.any(String));
    }
    const [still] = await t.database.db.select({ lat: profiles.latitude }).from(profiles).where(eq(profiles.userId, t.demoUserId));
    expect(still.lat).toBe(stored.lat);

    const stopped = await client.delete('/api/location.php');
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({ location: null });
    const [gone] = await t.database.db.select({ lat: profiles.latitude, lon: profiles.longitude }).from(profiles).where(eq(profiles.userId, t.demoUserId));
    expect(gone).toEqual({ lat: null, lon: null });
    expect((await client.get<Page>('/api/members.php')).body.distance_unit).toBeNull();

    // A visitor has no location to share.
    expect((await t.client().put('/api/location.php', { lat: 52.37, lon: 4.89 })).status).toBe(403);
  });
});
