import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { createApp } from '../app.ts';
import type { Db } from '../db/client.ts';
import { companies, sharedCache, sites } from '../db/schema.ts';
import { loadEnv } from '../env.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createLogger } from '../infra/logger.ts';
import { memoryCache, redisCache, type SharedCache } from '../infra/shared-cache.ts';
import { localStorage } from '../infra/storage.ts';
import { createServices } from '../services.ts';
import { createSiteCache, SITE_VERSION_KEY } from './site-cache.ts';
import { countingDb, createTestApp, DATABASE_KINDS, TestClient, testClock, type TestApp } from '../../tests/helpers/test-app.ts';

const REDIS_URL = inject('redisUrl');
const withRedis = REDIS_URL !== null;

/** Statements that read or write a site or a company. */
const SITE_SQL = /"(sites|companies)"/;

describe.each(DATABASE_KINDS)('the site cache on %s', (kind) => {
  let t: TestApp;
  const redisClients: Redis[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(async () => {
    for (const r of redisClients) r.disconnect();
    await t.close();
  });

  /** The same database, seen through a drizzle instance that records every statement. */
  function counted() {
    const { db, statements } = countingDb(t, kind);
    return { db, statements, siteQueries: () => statements.filter((s) => SITE_SQL.test(s)) };
  }

  /** One more instance of the server over the same database, as behind a load balancer. */
  async function instance(shared?: (db: Db) => SharedCache) {
    const counting = counted();
    const services = createServices({
      db: counting.db, clock: t.clock, storage: localStorage(t.photosDir), logger: createLogger('error'), sharedCache: shared?.(counting.db),
    });
    const app = createApp({ services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test' }), logger: createLogger('silent') });
    return {
      ...counting, services,
      client: (host = 'localhost') => new TestClient(app, host, {}),
      settings: async (host = 'localhost') => (await new TestClient(app, host, {}).get('/api/settings.php')).body.settings,
    };
  }

  it('serves a warm request, of any host, without a site or company query', async () => {
    const a = await instance();
    expect((await a.settings()).domain).toBe('localhost');
    expect((await a.client().get('/api/companyinfo.php')).status).toBe(200);
    expect(a.siteQueries().length).toBeGreaterThan(0);

    a.statements.length = 0;
    expect((await a.settings('www.localhost:5173')).domain).toBe('localhost');
    const company = (await a.client().get('/api/companyinfo.php')).body.companyinfo;
    expect(company.name).toBeTruthy();
    // Unknown hosts share the default site: no query each, and nothing new is kept for them.
    for (let i = 0; i < 50; i++) expect((await a.settings(`attacker-${randomBytes(4).toString('hex')}.example`)).domain).toBe('localhost');
    expect(a.siteQueries()).toEqual([]);
    expect(a.services.settings.cachedSites()).toBe(1);
  });

  it('after updateSite on one instance, another over the same database serves the new settings within a second', async () => {
    const a = await instance();
    const b = await instance();
    const original = (await a.settings()).name;
    expect((await b.settings()).name).toBe(original);

    await a.services.settings.updateSite(t.siteId, { name: 'Renamed', messageCredits: 9 });
    // The instance that changed it knows at once.
    expect(await a.settings()).toMatchObject({ name: 'Renamed', message_credits: 9 });
    // The other one within the check interval (one second) of the shared version stamp.
    t.clock.advance(1_000);
    expect(await b.settings()).toMatchObject({ name: 'Renamed', message_credits: 9 });
    // The stamp lives in the database when there is no Redis.
    expect(await t.database.db.select().from(sharedCache).where(eq(sharedCache.key, SITE_VERSION_KEY))).toHaveLength(1);

    // Warm again: no site query on either.
    a.statements.length = 0;
    b.statements.length = 0;
    await a.settings();
    await b.settings();
    expect([...a.siteQueries(), ...b.siteQueries()]).toEqual([]);
    await a.services.settings.updateSite(t.siteId, { name: original, messageCredits: 5 });
  });

  it('picks up a new company or site after invalidateSites, and reloads after the TTL even without a stamp', async () => {
    const a = await instance();
    const b = await instance();
    await a.settings('nieuw.example');
    await b.settings('nieuw.example');
    const [company] = await t.database.db.insert(companies).values({ name: 'Nieuw B.V.', address: 'Plein 2', kvk: '11112222', city: 'Delft', country: 'NL' }).returning();
    const [site] = await t.database.db.insert(sites).values({ domain: 'nieuw.example', companyId: company.id, name: 'Nieuw' }).returning();
    // Written behind the cache's back: still the default site, until someone says so.
    expect((await b.settings('nieuw.example')).domain).toBe('localhost');
    await a.services.settings.invalidateSites();
    t.clock.advance(1_000);
    expect((await b.settings('nieuw.example')).name).toBe('Nieuw');
    expect((await b.client('nieuw.example').get('/api/companyinfo.php')).body.companyinfo.name).toBe('Nieuw B.V.');

    // A change without a stamp (by hand in SQL) shows once the TTL (five minutes) has passed.
    await t.database.db.update(sites).set({ name: 'Nieuw!' }).where(eq(sites.id, site.id));
    t.clock.advance(60_000);
    expect((await b.settings('nieuw.example')).name).toBe('Nieuw');
    t.clock.advance(5 * 60_000);
    expect((await b.settings('nieuw.example')).name).toBe('Nieuw!');
  });

  it('answers 404 for an unknown site and refuses a domain another site has', async () => {
    await expect(t.services.settings.updateSite(999_999, { name: 'x' })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const [company] = await t.database.db.select().from(companies).limit(1);
    await t.database.db.insert(sites).values({ domain: 'taken.example', companyId: company.id, name: 'Taken' });
    await expect(t.services.settings.updateSite(t.siteId, { domain: 'www.Taken.example' })).rejects.toMatchObject({ status: 409 });
    expect((await t.client().get('/api/settings.php')).body.settings.domain).toBe('localhost');
  });

  it.skipIf(!withRedis)('after updateSite on one instance, another over the same Redis serves the new settings within a second', async () => {
    const prefix = `amora-test:${randomBytes(6).toString('hex')}:`;
    const viaRedis = () => {
      const r = new Redis(REDIS_URL ?? '');
      redisClients.push(r);
      return redisCache(r, t.clock, prefix);
    };
    const a = await instance(viaRedis);
    const b = await instance(viaRedis);
    expect((await b.settings()).name).not.toBe('Over Redis');
    await t.database.db.delete(sharedCache);
    await a.services.settings.updateSite(t.siteId, { name: 'Over Redis' });
    expect((await a.settings()).name).toBe('Over Redis');
    t.clock.advance(1_000);
    expect((await b.settings()).name).toBe('Over Redis');
    // The stamp went through Redis, not the database.
    expect(await redisClients[0].get(prefix + SITE_VERSION_KEY)).toBeTruthy();
    expect(await t.database.db.select().from(sharedCache)).toEqual([]);
  });
});

describe('the site cache on its own', () => {
  it('holds at most maxEntries sites and loads a cold site once for concurrent requests', async () => {
    const t = await createTestApp('pglite', { profiles: 0 });
    try {
      const [company] = await t.database.db.select().from(companies).limit(1);
      for (const d of ['one.example', 'two.example', 'three.example']) {
        await t.database.db.insert(sites).values({ domain: d, companyId: company.id, name: d });
      }
      const clock = testClock();
      const cache = createSiteCache({ db: t.database.db, clock, shared: memoryCache(clock), options: { maxEntries: 2 } });
      const resolved = await Promise.all([1, 2, 3, 4, 5].map(() => cache.forHost('one.example')));
      expect(new Set(resolved).size).toBe(1);
      expect(resolved[0].company.id).toBe(company.id);
      expect(Object.isFrozen(resolved[0].site)).toBe(true);
      await cache.forHost('two.example');
      await cache.forHost('three.example');
      expect(cache.size()).toBe(2);
    } finally {
      await t.close();
    }
  });
});
