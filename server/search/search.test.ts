import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { profiles, users } from '../db/schema.ts';
import { SEARCH_PAGE_SIZE } from '#common/constants.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { birthDateRange } from './search.service.ts';

describe('birthDateRange', () => {
  it('covers exactly the people aged min..max on the day', () => {
    expect(birthDateRange(new Date('2026-06-01T12:00:00Z'), 18, 30)).toEqual({ after: '1995-06-01', onOrBefore: '2008-06-01' });
  });
});

describe.each(DATABASE_KINDS)('member search on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 60 });
  });
  afterAll(() => t.close());

  type Page = { profiles: { id: number; gender: string; country: string; age: number }[]; numResults: number | null; next_cursor: string | null };

  async function all(client: ReturnType<TestApp['client']>, query: string) {
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

  it('pages through every match once, newest first', async () => {
    const client = t.client();
    await client.login();
    const { first, seen, pages } = await all(client, 'min_age=18&max_age=99');
    expect(first.profiles).toHaveLength(SEARCH_PAGE_SIZE);
    expect(first.numResults).toBe(60);
    expect(pages).toBe(3);
    expect(new Set(seen.map((p) => p.id)).size).toBe(60);
    expect(seen.some((p) => p.id === t.demoUserId)).toBe(false);
  });

  it('filters by gender, country and age range', async () => {
    const client = t.client();
    await client.login();
    const { first, seen } = await all(client, 'gender=female&country=NL&min_age=25&max_age=40');
    const expected = (await t.database.db.select().from(profiles)).filter((p) => {
      const age = seen.find((s) => s.id === p.userId)?.age;
      return p.gender === 'female' && p.country === 'NL' && p.userId !== t.demoUserId && (age === undefined || (age >= 25 && age <= 40));
    });
    expect(first.numResults).toBe(seen.length);
    for (const p of seen) {
      expect(p.gender).toBe('female');
      expect(p.country).toBe('NL');
      expect(p.age).toBeGreaterThanOrEqual(25);
      expect(p.age).toBeLessThanOrEqual(40);
    }
    expect(seen.length).toBeLessThanOrEqual(expected.length);
  });

  it('never shows deleted or disabled members', async () => {
    const client = t.client();
    await client.login();
    const before = (await client.get<Page>('/api/members.php')).body;
    const [gone, hidden] = before.profiles;
    await t.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, gone.id));
    await t.database.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, hidden.id));
    const { seen, first } = await all(client, 'min_age=18&max_age=99');
    expect(first.numResults).toBe(before.numResults! - 2);
    expect(seen.map((p) => p.id)).not.toContain(gone.id);
    expect(seen.map((p) => p.id)).not.toContain(hidden.id);
    expect((await client.get(`/api/profile.php?id=${gone.id}`)).status).toBe(404);
  });

  it('lets visitors search unless logged_out_search is none (then a traffic source is needed)', async () => {
    const { sites } = await import('../db/schema.ts');
    expect((await t.client().get('/api/members.php')).status).toBe(200);
    await t.database.db.update(sites).set({ loggedOutSearch: 'none', loggedOutSearchTrafficsource: 'all' });
    expect((await t.client().get('/api/members.php')).status).toBe(403);
    expect((await t.client().get('/api/members.php?network=partner')).status).toBe(200);
    await t.database.db.update(sites).set({ loggedOutSearchTrafficsource: 'none' });
    expect((await t.client().get('/api/members.php?network=partner')).status).toBe(403);
    await t.database.db.update(sites).set({ loggedOutSearch: 'all' });
  });

  it('ignores nonsense filters instead of failing', async () => {
    const res = await t.client().get<Page>('/api/members.php?gender=robot&country=XX&min_age=abc&max_age=500&cursor=%%%');
    expect(res.status).toBe(200);
    expect(res.body.numResults).toBeGreaterThan(0);
  });
});
