/**
 * npm run bench -- search: member search on 1,000,000 profiles in PostgreSQL.
 *
 * Creates the database amora_bench (dropped again at the end) on BENCH_DATABASE_URL's server, seeds it with
 * INSERT … SELECT generate_series, then measures GET /api/members.php of the real app over HTTP on localhost
 * with 10 concurrent clients, next to a baseline of bare node:http and one primary-key query with pg. Every figure is printed as `name: value unit`;
 * the process exits with 1 when a target is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { createLogger } from '../server/infra/logger.ts';
import { createServices } from '../server/services.ts';
import { localStorage } from '../server/infra/storage.ts';
import { searchSchema } from '../common/schemas.ts';
import { COUNTRIES } from '../common/constants.ts';
import { admin, CLIENTS, databaseUrl, figure, finish, get, load as loadRuns, machine, target } from './lib.ts';

const PROFILES = Number(process.env.BENCH_PROFILES ?? 1_000_000);
const REQUESTS_PER_CLIENT = Number(process.env.BENCH_REQUESTS ?? 40);
const P95_TARGET_MS = 20;
/** Search p95 against the baseline's (node:http and one primary-key query), measured in the same run. */
const P95_OF_BASELINE = 2.5;
const DEEP_PAGE = 50;
const DEEP_PAGE_FACTOR = 1.2;
const DB_NAME = 'amora_bench';

const benchUrl = new URL(databaseUrl(DB_NAME));

const COMBOS: Record<string, string> = {
  no_filter: '',
  gender: 'gender=female',
  gender_country: 'gender=female&country=NL',
  gender_country_age: 'gender=female&country=NL&min_age=25&max_age=40',
  country_age: 'country=DE&min_age=30&max_age=50',
  // The searching member shares Amsterdam (below); a third of the members share a place somewhere in Europe.
  distance_100km: 'distance=100km',
};

/** Where the bench's searching member (the demo member) is. */
const VIEWER_PLACE = { lat: 52.3676, lon: 4.9041 };

async function seed() {
  // BENCH_REUSE=1 with BENCH_KEEP=1 from an earlier run skips seeding (for working on the queries).
  if (process.env.BENCH_REUSE) {
    const exists = await admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount);
    if (exists) return;
  }
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const database = await openDatabase({ url: benchUrl.toString() });
  await database.migrate();
  const photosDir = mkdtempSync(join(tmpdir(), 'amora-bench-photos-'));
  const { siteId } = await seedDemoSite(database.db, { photosDir, clock: systemClock, profileCount: 0 });
  await database.close();
  rmSync(photosDir, { recursive: true, force: true });

  const c = new pg.Client({ connectionString: benchUrl.toString() });
  await c.connect();
  const started = performance.now();
  await c.query('SELECT setseed(0.20261122)');
  // 0.5% deleted, 1% invisible, 2% disabled profiles: the search must skip them all.
  await c.query(`
    INSERT INTO users (site_id, email, password_hash, status, invisible, signup_date)
    SELECT $1, 'bench' || g || '@bench.invalid', '!', CASE WHEN g % 200 = 0 THEN 'deleted' ELSE 'active' END, g % 100 = 1,
      now() - (${PROFILES} - g) * interval '30 seconds' - random() * interval '20 seconds'
    FROM generate_series(1, ${PROFILES}) g`, [siteId]);
  await c.query(`
    WITH regs AS (SELECT country, array_agg(name ORDER BY code) AS names FROM regions GROUP BY country),
    countries AS (SELECT $1::text[] AS list)
    INSERT INTO profiles (user_id, name, gender, birth_date, country, region, status, created_at, latitude, longitude)
    SELECT u.id, 'Member ' || u.id, p.gender, p.birth_date, p.country,
      CASE WHEN random() < 0.8 THEN regs.names[1 + floor(random() * array_length(regs.names, 1))::int] END,
      CASE WHEN u.id % 50 = 7 THEN 'disabled' ELSE 'active' END, u.signup_date,
      CASE WHEN p.located THEN 47 + p.r1 * 12 END, CASE WHEN p.located THEN -5 + p.r2 * 25 END
    FROM users u
    CROSS JOIN countries
    CROSS JOIN LATERAL (SELECT
      CASE WHEN random() < 0.55 THEN 'female' ELSE 'male' END AS gender,
      (current_date - interval '18 years' - random() * interval '62 years')::date AS birth_date,
      countries.list[1 + floor(random() * array_length(countries.list, 1))::int] AS country,
      random() < 0.33 AS located, random() AS r1, random() AS r2,
      u.id AS uid) p
    LEFT JOIN regs ON regs.country = p.country
    WHERE u.email LIKE 'bench%'`, [COUNTRIES]);
  await c.query('UPDATE profiles SET latitude = $1, longitude = $2 WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($3))',
    [VIEWER_PLACE.lat, VIEWER_PLACE.lon, DEMO_EMAIL]);
  await c.query('VACUUM ANALYZE users');
  await c.query('VACUUM ANALYZE profiles');
  const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM profiles');
  await c.end();
  figure('seed_profiles', rows[0].n, 'rows');
  figure('seed_time', (performance.now() - started) / 1000, 's');
  target(rows[0].n >= PROFILES, `seeded ${rows[0].n} profiles, wanted ${PROFILES}`);
}

async function checkPlans() {
  const database = await openDatabase({ url: benchUrl.toString() });
  const services = createServices({ db: database.db, clock: systemClock, storage: localStorage(tmpdir()), logger: createLogger('error') });
  // A member of the demo site searches, as the API's searches do.
  const viewer = { kind: 'member', userId: 1, siteId: (await services.settings.siteForHost('localhost')).id } as const;
  for (const [name, query] of Object.entries(COMBOS)) {
    const plans = await services.search.explain(viewer, searchSchema.parse(Object.fromEntries(new URLSearchParams(query))));
    const seqScans = [plans.page, plans.count].filter((p) => /Seq Scan on profiles/.test(p)).length;
    figure(`explain_${name}_seq_scans_on_profiles`, seqScans, 'plans');
    target(seqScans === 0, `${name}: a sequential scan of profiles\n${plans.page}\n${plans.count}`);
  }
  await database.close();
}

/** The searching member's id: the baseline reads that row. */
async function demoMemberId(): Promise<number> {
  const c = new pg.Client({ connectionString: benchUrl.toString() });
  await c.connect();
  try {
    const { rows } = await c.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [DEMO_EMAIL]);
    return rows[0].id;
  } finally {
    await c.end();
  }
}

const load = (urls: string[], headers: Record<string, string>) => loadRuns(urls, headers, REQUESTS_PER_CLIENT);

async function measure(appPort: number, baselinePort: number) {
  const base = `http://127.0.0.1:${appPort}`;
  const login = await fetch(`${base}/api/user.php`, {
    method: 'POST', headers: { 'content-type': 'application/json', host: 'localhost' },
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const headers = { cookie, 'x-request-type': 'client' };

  const baselineUrls = [`http://127.0.0.1:${baselinePort}/`];
  await load(baselineUrls, {});
  const baseline = await load(baselineUrls, {});
  figure('baseline_node_pg_p50', baseline.p50, 'ms');
  figure('baseline_node_pg_p95', baseline.p95, 'ms');
  figure('baseline_node_pg_throughput', Math.round(baseline.rps), 'req/s');
  const p95Bound = P95_OF_BASELINE * baseline.p95;

  const pages: Record<string, { first: string; deepUrl: string }> = {};
  for (const [name, query] of Object.entries(COMBOS)) {
    const first = `${base}/api/members.php?${query}`;
    // Walk to page 50 once to learn its cursor.
    let url = first;
    for (let page = 1; page < DEEP_PAGE; page++) {
      const body = JSON.parse((await get(url, headers)).body) as { next_cursor: string | null };
      if (!body.next_cursor) throw new Error(`${name}: fewer than ${DEEP_PAGE} pages`);
      url = `${first}${query ? '&' : ''}cursor=${body.next_cursor}`;
    }
    pages[name] = { first, deepUrl: url };
  }
  // The whole server warms up before anything is measured (compiled code, the pool's connections and their
  // plans): warming each combination just before its own run left the first one measured the slowest, whichever
  // it was.
  for (const { first, deepUrl } of Object.values(pages)) await load([first, deepUrl], headers);

  for (const [name, { first, deepUrl }] of Object.entries(pages)) {
    await load([first], headers);
    const page1 = await load([first], headers);
    const page50 = await load([deepUrl], headers);
    figure(`search_${name}_page1_p50`, page1.p50, 'ms');
    figure(`search_${name}_page1_p95`, page1.p95, 'ms');
    figure(`search_${name}_page1_throughput`, Math.round(page1.rps), 'req/s');
    figure(`search_${name}_page50_p50`, page50.p50, 'ms');
    figure(`search_${name}_page50_p95`, page50.p95, 'ms');
    figure(`search_${name}_page50_to_page1`, page50.p50 / page1.p50, 'x');
    figure(`search_${name}_page1_p95_to_baseline`, page1.p95 / baseline.p95, 'x');
    figure(`search_${name}_page50_p95_to_baseline`, page50.p95 / baseline.p95, 'x');
    for (const [which, run] of [['page 1', page1], ['page 50', page50]] as const) {
      target(run.p95 <= P95_TARGET_MS, `${name}: ${which} p95 ${run.p95.toFixed(1)} ms > ${P95_TARGET_MS} ms`);
      target(run.p95 <= p95Bound, `${name}: ${which} p95 ${run.p95.toFixed(1)} ms > ${P95_OF_BASELINE} × the baseline's ${baseline.p95.toFixed(1)} ms`);
    }
    target(page50.p50 <= DEEP_PAGE_FACTOR * page1.p50, `${name}: page 50 (${page50.p50.toFixed(1)} ms) slower than ${DEEP_PAGE_FACTOR} × page 1 (${page1.p50.toFixed(1)} ms)`);
  }
}

async function main() {
  machine('before');
  figure('bench_clients', CLIENTS, 'clients');
  figure('bench_requests_per_run', CLIENTS * REQUESTS_PER_CLIENT, 'requests');
  await seed();
  await checkPlans();
  const worker = new Worker(new URL('./server-worker.mjs', import.meta.url), { workerData: { url: benchUrl.toString(), userId: await demoMemberId() } });
  try {
    const ports = await new Promise<{ appPort: number; baselinePort: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await measure(ports.appPort, ports.baselinePort);
  } finally {
    worker.postMessage('close');
    await new Promise((r) => worker.once('exit', r));
    if (!process.env.BENCH_KEEP) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
  }
  finish();
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
