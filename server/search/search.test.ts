import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { blocks, companies, profiles, sites, users } from '../db/schema.ts';
import { SEARCH_COUNT_CAP, SEARCH_PAGE_SIZE } from '#common/constants.ts';
import { searchSchema } from '#common/schemas.ts';
import { createTestApp, DATABASE_KINDS, memberActor, type TestApp } from '../../tests/helpers/test-app.ts';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { sharedCache } from '../db/schema.ts';
import { createLogger } from '../infra/logger.ts';
import { redisCache, type SharedCache } from '../infra/shared-cache.ts';
import { localStorage } from '../infra/storage.ts';
import { createServices } from '../services.ts';
import { BROAD_FOR_MS, birthDateRange, broadFilterKey, relaxFilters } from './search.service.ts';

const REDIS_URL = inject('redisUrl');
const withRedis = REDIS_URL !== null;

describe('birthDateRange', () => {
  it('covers exactly the people aged min..max on the day', () => {
    expect(birthDateRange(new Date('2026-06-01T12:00:00Z'), 18, 30)).toEqual({ after: '1995-06-01', onOrBefore: '2008-06-01' });
  });
});

describe('relaxFilters', () => {
  it('widens the ages first, then drops the region, then the country, and keeps the gender', () => {
    const f = { gender: 'female' as const, country: 'NL', countryregion: 'Utrecht', min_age: 20, max_age: 95 };
    expect(relaxFilters(f, 1)).toEqual({ gender: 'female', country: 'NL', countryregion: 'Utrecht', min_age: 18, max_age: 99 });
    expect(relaxFilters(f, 2)).toEqual({ gender: 'female', country: 'NL', countryregion: undefined, min_age: 20, max_age: 95 });
    expect(relaxFilters(f, 3)).toEqual({ gender: 'female', country: undefined, countryregion: undefined, min_age: 20, max_age: 95 });
  });
});

type Profile = { id: number; gender: string; country: string; region: string | null; age: number };
type Page = {
  profiles: Profile[]; numResults: number | null; numResults_capped: boolean; next_cursor: string | null;
  similar_results: { level: number; filters: Record<string, unknown>; profiles: Profile[]; next_cursor: string | null } | null;
  similar_numResults: number | null;
};
type Client = ReturnType<TestApp['client']>;

async function all(client: Client, query: string) {
  const first = (await client.get<Page>(`/api/members.php?${query}`)).body;
  const seen = [...first.profiles];
  let cursor = first.next_cursor;
  let pages = 1;
  while (cursor) {
    const next = (await client.get<Page>(`/api/members.php?${query}&cursor=${cursor}`)).body;
    expect(next.numResults).toBeNull();
    seen.push(...next.profiles);
    cursor = next.next_cursor;
    pages++;
  }
  return { first, seen, pages };
}

describe.each(DATABASE_KINDS)('member search on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 60 });
  });
  afterAll(() => t.close());

  it('pages through every match once, newest first', async () => {
    const client = t.client();
    await client.login();
    const { first, seen, pages } = await all(client, 'min_age=18&max_age=99');
    expect(first.profiles).toHaveLength(SEARCH_PAGE_SIZE);
    expect(first.numResults).toBe(60);
    expect(first.numResults_capped).toBe(false);
    expect(first.similar_results).toBeNull();
    expect(pages).toBe(3);
    expect(new Set(seen.map((p) => p.id)).size).toBe(60);
    expect(seen.some((p) => p.id === t.demoUserId)).toBe(false);
    const ids = seen.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('shows the demo site\'s fictional profiles as fictional: one in twelve of those seeded', async () => {
    const client = t.client();
    await client.login();
    const { seen } = await all(client, 'min_age=18&max_age=99');
    const fictional = (seen as (Profile & { fictional: boolean })[]).filter((p) => p.fictional);
    expect(fictional).toHaveLength(5);
    const stored = await t.database.db.select({ id: profiles.userId }).from(profiles).where(eq(profiles.fictional, true));
    expect(fictional.map((p) => p.id).sort()).toEqual(stored.map((r) => r.id).sort());
  });

  it('filters by gender, country and age range, and counts exactly what it pages', async () => {
    const client = t.client();
    await client.login();
    const { first, seen } = await all(client, 'gender=female&country=NL&min_age=25&max_age=40');
    expect(first.numResults).toBe(seen.length);
    for (const p of seen) {
      expect(p.gender).toBe('female');
      expect(p.country).toBe('NL');
      expect(p.age).toBeGreaterThanOrEqual(25);
      expect(p.age).toBeLessThanOrEqual(40);
    }
    const rows = await t.database.db.select().from(profiles);
    const range = birthDateRange(t.clock(), 25, 40);
    const expected = rows.filter((p) => p.gender === 'female' && p.country === 'NL' && p.userId !== t.demoUserId
      && p.birthDate > range.after && p.birthDate <= range.onOrBefore);
    expect(seen.map((p) => p.id).sort()).toEqual(expected.map((p) => p.userId).sort());
  });

  it('answers each search of a shape with its own values (one statement compiled per shape)', async () => {
    const client = t.client();
    await client.login();
    const rows = await t.database.db.select().from(profiles);
    for (const [gender, country, min, max] of [['female', 'NL', 25, 40], ['male', 'DE', 30, 60], ['female', 'DE', 18, 99], ['male', 'NL', 18, 30]] as const) {
      const { first, seen } = await all(client, `gender=${gender}&country=${country}&min_age=${min}&max_age=${max}`);
      const range = birthDateRange(t.clock(), min, max);
      const expected = rows.filter((p) => p.gender === gender && p.country === country && p.userId !== t.demoUserId
        && p.birthDate > range.after && p.birthDate <= range.onOrBefore);
      expect(seen.map((p) => p.id).sort(), `${gender} ${country} ${min}-${max}`).toEqual(expected.map((p) => p.userId).sort());
      expect(first.numResults).toBe(expected.length);
    }
  });

  it('filters by region within the country, and ignores a region without a country', async () => {
    const client = t.client();
    // Visitors see every listed member, the demo member too.
    const rows = await t.database.db.select().from(profiles).where(sql`${profiles.region} is not null`);
    const sample = rows[0];
    const { seen } = await all(client, `country=${sample.country}&countryregion=${encodeURIComponent(sample.region!)}`);
    const expected = rows.filter((p) => p.country === sample.country && p.region === sample.region).map((p) => p.userId);
    expect(seen.map((p) => p.id).sort()).toEqual(expected.sort());
    expect(seen.every((p) => p.region === sample.region)).toBe(true);
    const regionOnly = (await client.get<Page>(`/api/members.php?countryregion=${encodeURIComponent(sample.region!)}`)).body;
    expect(regionOnly.numResults).toBe(61);
  });

  it('offers similar results with their own pages when few members match', async () => {
    const client = t.client();
    await client.login();
    // Few Dutch women in their twenties and thirties among the demo members.
    const strict = (await client.get<Page>('/api/members.php?gender=female&country=NL&min_age=20&max_age=40')).body;
    expect(strict.numResults).toBeLessThan(12);
    expect(strict.similar_results).not.toBeNull();
    const similar = strict.similar_results!;
    // No Dutch woman in a wider age range either: the similar members come from other countries.
    expect(similar.level).toBe(3);
    expect(strict.similar_numResults).toBeGreaterThan(0);
    expect(similar.filters).toMatchObject({ gender: 'female' });
    const strictIds = new Set(strict.profiles.map((p) => p.id));
    const seen = [...similar.profiles];
    let cursor = similar.next_cursor;
    while (cursor) {
      const next = (await client.get<Page>(`/api/members.php?gender=female&country=NL&min_age=20&max_age=40&similar=${similar.level}&cursor=${cursor}`)).body;
      expect(next.profiles).toEqual([]);
      seen.push(...next.similar_results!.profiles);
      cursor = next.similar_results!.next_cursor;
    }
    expect(seen.length).toBe(strict.similar_numResults);
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
    for (const p of seen) {
      expect(p.gender).toBe('female');
      expect(strictIds.has(p.id)).toBe(false);
      expect(p.country === 'NL' && p.age >= 20 && p.age <= 40).toBe(false);
    }
    if (similar.level === 1) for (const p of seen) expect(p.country).toBe('NL');
    // "Also from other regions" and "also from other countries" keep the ages asked for.
    if (similar.level > 1) for (const p of seen) expect(p.age >= 20 && p.age <= 40, `${p.age}`).toBe(true);
  });

  it('hides invisible, deleted and disabled members and blocks in both directions', async () => {
    const client = t.client();
    const me = await client.login();
    const before = (await client.get<Page>('/api/members.php')).body;
    const [gone, hidden, invisible, blockedByMe, blockingMe] = before.profiles;
    await t.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, gone.id));
    await t.database.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, hidden.id));
    await t.database.db.update(users).set({ invisible: true }).where(eq(users.id, invisible.id));
    await t.database.db.insert(blocks).values([{ blockerId: me.id, blockedId: blockedByMe.id }, { blockerId: blockingMe.id, blockedId: me.id }]);
    const { seen, first } = await all(client, 'min_age=18&max_age=99');
    expect(first.numResults).toBe(before.numResults! - 5);
    const ids = seen.map((p) => p.id);
    for (const p of [gone, hidden, invisible, blockedByMe, blockingMe]) expect(ids).not.toContain(p.id);
    // Blocks only concern the two members: a visitor still sees both of them.
    const visitor = (await all(t.client(), 'min_age=18&max_age=99')).seen.map((p) => p.id);
    expect(visitor).toContain(blockedByMe.id);
    expect(visitor).toContain(blockingMe.id);
    expect(visitor).not.toContain(invisible.id);
    // Similar results obey the same rules.
    const rare = (await client.get<Page>(`/api/members.php?country=${invisible.country}&min_age=${invisible.age}&max_age=${invisible.age}`)).body;
    const similarIds = (rare.similar_results?.profiles ?? []).map((p) => p.id);
    for (const p of [gone, hidden, invisible, blockedByMe, blockingMe]) expect(similarIds).not.toContain(p.id);
    expect((await client.get(`/api/profile.php?id=${gone.id}`)).status).toBe(404);
    await t.database.db.update(users).set({ status: 'active', invisible: false }).where(sql`${users.id} in (${gone.id}, ${invisible.id})`);
    await t.database.db.update(profiles).set({ status: 'active' }).where(eq(profiles.userId, hidden.id));
    await t.database.db.delete(blocks);
  });

  it('applies only the filters the site offers (search_fields)', async () => {
    await t.services.settings.updateSite(t.siteId, { searchFields: ['age'] });
    const res = (await t.client().get<Page>('/api/members.php?gender=male&country=NL')).body;
    expect(res.numResults).toBe(61);
    await t.services.settings.updateSite(t.siteId, { searchFields: ['gender', 'country', 'age'] });
    const filtered = (await t.client().get<Page>('/api/members.php?gender=male&country=NL')).body;
    expect(filtered.numResults).toBeLessThan(61);
  });

  it('lets visitors search unless logged_out_search is none (then a traffic source is needed)', async () => {
    expect((await t.client().get('/api/members.php')).status).toBe(200);
    await t.services.settings.updateSite(t.siteId, { loggedOutSearch: 'none', loggedOutSearchTrafficsource: 'all' });
    const denied = await t.client().get('/api/members.php');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('authentication_required');
    expect((await t.client().get('/api/members.php?network=partner')).status).toBe(200);
    const member = t.client();
    await member.login();
    expect((await member.get('/api/members.php')).status).toBe(200);
    await t.services.settings.updateSite(t.siteId, { loggedOutSearchTrafficsource: 'none' });
    expect((await t.client().get('/api/members.php?network=partner')).status).toBe(403);
    expect((await member.get('/api/members.php')).status).toBe(200);
    await t.services.settings.updateSite(t.siteId, { loggedOutSearch: 'all' });
  });

  it('ignores nonsense filters instead of failing', async () => {
    const res = await t.client().get<Page>('/api/members.php?gender=robot&country=XX&min_age=abc&max_age=500&similar=9');
    expect(res.status).toBe(200);
    expect(res.body.numResults).toBeGreaterThan(0);
  });
});

describe.each(DATABASE_KINDS)('member search at a moderate size on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    // 3,000 members, 5 per second, alternating genders over six countries.
    await t.database.db.execute(sql`
      with u as (
        insert into users (site_id, email, password_hash, status, signup_date)
        select ${t.siteId}, 'bulk' || g || '@example.invalid', '!', 'active', now() - g * interval '200 ms' from generate_series(1, 3000) g
        returning id, signup_date
      )
      insert into profiles (user_id, name, gender, birth_date, country, region, created_at)
      select id, 'Bulk', case when id % 2 = 0 then 'female' else 'male' end, date '1970-01-01' + (id % 15000),
        (array['NL','DE','BE','FR','GB','US'])[1 + id % 6], case when id % 3 = 0 then 'Utrecht' end, signup_date from u`);
    await t.database.db.execute(sql`analyze profiles`);
    await t.database.db.execute(sql`analyze users`);
  });
  afterAll(() => t.close());

  it('pages completely through members created within the same millisecond', async () => {
    await t.database.db.execute(sql`
      with u as (
        insert into users (site_id, email, password_hash, status)
        select ${t.siteId}, 'same-ms' || g || '@example.invalid', '!', 'active' from generate_series(1, 60) g
        returning id
      )
      insert into profiles (user_id, name, gender, birth_date, country, created_at)
      select id, 'Same', 'female', date '1990-01-01', 'IE', timestamptz '2026-05-01 10:00:00.000100+00' + (id % 7) * interval '1 microsecond' from u`);
    const { first, seen, pages } = await all(t.client(), 'country=IE');
    expect(first.numResults).toBe(60);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(60);
    expect(new Set(seen.map((p) => p.id)).size).toBe(60);
  });

  it('caps the count at 1000 and says so', async () => {
    const res = (await t.client().get<Page>('/api/members.php')).body;
    expect(res.numResults).toBe(SEARCH_COUNT_CAP);
    expect(res.numResults_capped).toBe(true);
    const narrow = (await t.client().get<Page>('/api/members.php?gender=female&country=NL')).body;
    expect(narrow.numResults).toBe(500);
    expect(narrow.numResults_capped).toBe(false);
  });

  it('trusts a capped count for a minute, then counts again; small counts are always exact', async () => {
    const female = async () => (await t.client().get<Page>('/api/members.php?gender=female')).body;
    expect((await female()).numResults_capped).toBe(true);
    // 600 fewer women, below the cap: within the minute "1000+" stands, after it the exact count is back.
    await t.database.db.execute(sql`update profiles set status = 'disabled' where gender = 'female' and user_id in (
      select user_id from profiles where gender = 'female' and name = 'Bulk' order by user_id limit 600)`);
    expect((await female()).numResults_capped).toBe(true);
    t.clock.advance(61_000);
    const recounted = await female();
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(profiles)
      .where(sql`${profiles.gender} = 'female' and ${profiles.status} = 'active'`);
    expect(n).toBeLessThan(SEARCH_COUNT_CAP);
    expect(recounted.numResults_capped).toBe(false);
    expect(recounted.numResults).toBe(n);
    await t.database.db.execute(sql`update profiles set status = 'disabled' where gender = 'female' and name = 'Bulk' and user_id in (
      select user_id from profiles where gender = 'female' and status = 'active' order by user_id limit 1)`);
    expect((await female()).numResults).toBe(n - 1);
    await t.database.db.execute(sql`update profiles set status = 'active' where name = 'Bulk'`);
  });

  it('plans every common filter combination on an index of profiles, without a sequential scan', async () => {
    const queries = ['', 'gender=female', 'gender=female&country=NL', 'gender=female&country=NL&min_age=25&max_age=40', 'country=DE&min_age=30&max_age=50',
      'country=NL&countryregion=Utrecht'];
    for (const q of queries) {
      const input = searchSchema.parse(Object.fromEntries(new URLSearchParams(q)));
      // The page (ordered, LIMIT 25) takes an index even where a scan of 3,000 rows would be cheap: walked in
      // order, or (where the statistics expect a handful of matches) read as a bitmap and sorted.
      const plans = await t.services.search.explain(memberActor(t, t.demoUserId), input);
      expect(plans.page, `page plan for "${q}"`).not.toMatch(/Seq Scan on profiles/);
      expect(plans.page, `page plan for "${q}"`).toMatch(/Index Scan using profiles_\w+ on profiles|Bitmap Index Scan on profiles_\w+/);
      // The capped count has an index path too (at a million rows the planner takes it; here it is forced).
      const forced = await t.services.search.explain(memberActor(t, t.demoUserId), input, { seqscan: false });
      for (const plan of [forced.page, forced.count]) {
        expect(plan, `plan for "${q}"`).not.toMatch(/Seq Scan on profiles/);
        expect(plan, `plan for "${q}"`).toMatch(/Index (Only )?Scan.* on profiles|Bitmap Index Scan on profiles/);
      }
    }
    // Page 2 walks the same index from the cursor on.
    const first = (await t.client().get<Page>('/api/members.php?gender=female&country=NL')).body;
    const plans = await t.services.search.explain({ kind: 'visitor', siteId: t.siteId }, searchSchema.parse({ gender: 'female', country: 'NL', cursor: first.next_cursor }));
    expect(plans.page).toMatch(/Index Scan using profiles_search_gender_country/);
  });

  it('keeps the search indexes when only some sites\' members are shown (member_resell, decision 051)', async () => {
    // Another company's site: the demo site's searches now show the demo site's members only, a condition on the site.
    const [other] = await t.database.db.insert(companies).values({ name: 'Elsewhere B.V.', address: 'Straat 1', kvk: '11111111', city: 'Utrecht', country: 'NL' }).returning();
    const site = await t.services.settings.addSite({ domain: 'elsewhere.test' });
    await t.services.settings.updateSite(site.id, { companyId: other.id });
    try {
      expect(await t.services.settings.meetingSites(t.siteId)).toEqual([t.siteId]);
      for (const q of ['', 'gender=female', 'gender=female&country=NL', 'country=DE&min_age=30&max_age=50']) {
        const input = searchSchema.parse(Object.fromEntries(new URLSearchParams(q)));
        const plans = await t.services.search.explain(memberActor(t, t.demoUserId), input);
        expect(plans.page, `page plan for "${q}"`).not.toMatch(/Seq Scan on profiles/);
        expect(plans.page, `page plan for "${q}"`).toMatch(/Index Scan using profiles_\w+ on profiles|Bitmap Index Scan on profiles_\w+/);
      }
    } finally {
      await t.database.db.delete(sites).where(eq(sites.id, site.id));
      await t.services.settings.invalidateSites();
    }
  });

  it('shares the "1000+" memo between instances: over the database, and over Redis when configured', async () => {
    const input = searchSchema.parse({ gender: 'male' });
    const key = broadFilterKey({ gender: 'male', min_age: input.min_age, max_age: input.max_age }, t.siteId);
    const visitor = { kind: 'visitor', siteId: t.siteId } as const;
    const otherInstance = (memo?: SharedCache) =>
      createServices({ db: t.database.db, clock: t.clock, storage: localStorage(t.photosDir), logger: createLogger('error'), sharedCache: memo });
    const disableMen = () => t.database.db.execute(sql`update profiles set status = 'disabled' where gender = 'male' and user_id in (
      select user_id from profiles where gender = 'male' and name = 'Bulk' order by user_id limit 700)`);
    const restore = () => t.database.db.execute(sql`update profiles set status = 'active' where name = 'Bulk'`);

    // Database: B counts "1000+", then fewer men match; A trusts B's count for the minute.
    const b = otherInstance();
    expect((await b.search.search(visitor, input)).numResults_capped).toBe(true);
    expect(await t.database.db.select().from(sharedCache).where(eq(sharedCache.key, key))).toHaveLength(1);
    await disableMen();
    expect((await t.services.search.search(visitor, input)).numResults_capped).toBe(true);
    t.clock.advance(BROAD_FOR_MS);
    expect((await t.services.search.search(visitor, input)).numResults_capped).toBe(false);
    // The hourly purge drops the expired memo.
    await restore();
    expect((await b.search.search(visitor, input)).numResults_capped).toBe(true);
    t.clock.advance(BROAD_FOR_MS);
    expect(await t.services.sharedCache.purgeExpired(t.clock())).toBeGreaterThan(0);
    expect(await t.database.db.select().from(sharedCache).where(eq(sharedCache.key, key))).toEqual([]);

    if (!withRedis) return;
    const prefix = `amora-test:${randomBytes(6).toString('hex')}:`;
    const clients = [new Redis(REDIS_URL ?? ''), new Redis(REDIS_URL ?? '')];
    try {
      const [ra, rb] = clients.map((r) => otherInstance(redisCache(r, t.clock, prefix)));
      expect((await rb.search.search(visitor, input)).numResults_capped).toBe(true);
      await disableMen();
      expect((await ra.search.search(visitor, input)).numResults_capped).toBe(true);
      // Kept in Redis, not in the database.
      expect(await clients[0].get(prefix + key)).toBeTruthy();
      expect(await t.database.db.select().from(sharedCache).where(eq(sharedCache.key, key))).toEqual([]);
      t.clock.advance(BROAD_FOR_MS);
      expect((await ra.search.search(visitor, input)).numResults_capped).toBe(false);
    } finally {
      for (const r of clients) r.disconnect();
      await restore();
    }
  });
});
