/**
 * npm run bench -- reports: the reports dashboard over a year of one large site (PostgreSQL).
 *
 * Creates the database amora_bench_reports (dropped again at the end) on BENCH_DATABASE_URL's server and seeds a year
 * of BENCH_MEMBERS members (1,000,000 by default) with orders of 5% of them and BENCH_MESSAGES messages, with
 * INSERT … SELECT generate_series, sign-ins of a quarter of them, and a year of visits to its nine landers. Then builds the
 * summaries as the hourly job does (decision 081): the first run (every day of the year) and a later one (the last
 * closed days), each timed, and computes the dashboard's figures for the year per month and per day BENCH_RUNS times
 * each (7 by default): the closed days from the summaries, today live. Prints the median and the 95th percentile.
 * Target: under a second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { dashboardFigures, dashboardPeriod } from '../server/reports/dashboard.ts';
import { buildReportSummaries } from '../server/reports/report-summaries.ts';
import { LANDER_NAMES } from '../common/landers.ts';
import { databaseUrl, dropDatabase, figure, finish, machine, percentile, recreateDatabase, target } from './lib.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MS = 1000;
const DB_NAME = 'amora_bench_reports';
const url = databaseUrl(DB_NAME);

machine('before');
await recreateDatabase(DB_NAME);
const database = await openDatabase({ url });
await database.migrate();
const photosDir = mkdtempSync(join(tmpdir(), 'amora-bench-photos-'));
const { siteId } = await seedDemoSite(database.db, { photosDir, clock: systemClock, profileCount: 0 });
rmSync(photosDir, { recursive: true, force: true });

const c = new pg.Client({ connectionString: url });
await c.connect();
const started = performance.now();
await c.query('SELECT setseed(0.2026)');
await c.query(`
  INSERT INTO users (site_id, email, password_hash, status, signup_date, activated_at)
  SELECT $1, 'r' || g || '@bench.invalid', '!', 'active', t, CASE WHEN g % 3 > 0 THEN t + interval '1 hour' END
  FROM generate_series(1, ${MEMBERS}) g, LATERAL (SELECT now() - random() * interval '365 days' AS t) s`, [siteId]);
await c.query(`
  INSERT INTO profiles (user_id, name, gender, birth_date, country, fictional)
  SELECT id, 'M' || id, 'female', '1990-01-01', (ARRAY['NL','DE','GB','FR'])[1 + id % 4], id % 500 = 0 FROM users WHERE email LIKE 'r%@bench.invalid'`);
const { rows: [pack] } = await c.query<{ id: number }>('SELECT id FROM credit_packages ORDER BY id LIMIT 1');
await c.query(`
  INSERT INTO orders (id, user_id, package_id, credits, amount_cents, currency, paymentmethod, status, idempotency_key, created_at, completed_at)
  SELECT 'b' || u.id || '-' || k, u.id, $1, 100, 1000 + k * 500, CASE WHEN u.id % 4 = 2 THEN 'GBP' ELSE 'EUR' END,
    (ARRAY['ideal','creditcard','paypal'])[1 + (u.id + k) % 3], 'completed', 'k' || k, t, t
  FROM users u, generate_series(0, 1) k, LATERAL (SELECT u.signup_date + random() * interval '20 days' AS t) s
  WHERE u.id % 20 = 0 AND (k = 0 OR u.id % 60 = 0)`, [pack.id]);
await c.query(`
  INSERT INTO conversations (user_low, user_high)
  SELECT u.id, u.id + 500 - u.id % 500 FROM users u WHERE u.email LIKE 'r%@bench.invalid' AND u.id % 500 <> 0 AND u.id % 2 = 0
  AND EXISTS (SELECT 1 FROM users v WHERE v.id = u.id + 500 - u.id % 500)`);
await c.query(`
  INSERT INTO messages (conversation_id, sender_id, body, kind, credits_spent, created_at)
  SELECT c.id, c.user_low, 'Hi', CASE WHEN g % 10 = 0 THEN 'gift' ELSE 'text' END, CASE WHEN g % 3 = 0 THEN 0 ELSE 10 END, now() - random() * interval '365 days'
  FROM generate_series(1, ${MESSAGES}) g JOIN conversations c ON c.id = 1 + g % (SELECT count(*) FROM conversations)`);
await c.query(`
  INSERT INTO sessions (id, user_id, site_id, created_at, expires_at)
  SELECT 'b' || u.id, u.id, u.site_id, t, t + interval '30 days'
  FROM users u, LATERAL (SELECT u.signup_date + random() * (now() - u.signup_date) AS t) s WHERE u.email LIKE 'r%@bench.invalid' AND u.id % 4 = 0`);
await c.query(`
  INSERT INTO page_bounces (site_id, path, seconds, created_at) SELECT $1, '/', 3, now() - random() * interval '365 days' FROM generate_series(1, ${MEMBERS / 2}) g`, [siteId]);
// A row per lander and day, as the landers count them: a year of nine landers is 3,285 rows whatever the traffic.
await c.query(`
  INSERT INTO lander_visits (site_id, lander, day, visits)
  SELECT $1, l, d::date, 500 + (random() * 5000)::int FROM unnest($2::text[]) l, generate_series(current_date - 365, current_date, interval '1 day') d`, [siteId, [...LANDER_NAMES]]);
await c.query('VACUUM ANALYZE');
await c.end();
figure('seed_members', MEMBERS, 'rows');
figure('seed_messages', MESSAGES, 'rows');
figure('seed_time', (performance.now() - started) / 1000, 's');

// The summaries as production builds them: the hourly job's first run builds every closed day, later runs the last ones.
for (const run of ['first', 'hourly'] as const) {
  const t0 = performance.now();
  const built = await buildReportSummaries(database.db, new Date());
  figure(`summaries_${run}_run_time`, (performance.now() - t0) / 1000, `s (${built ? `${built.from} to ${built.to}` : 'nothing to build'})`);
}

const today = new Date();
const from = new Date(today.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
for (const bucket of ['month', 'day'] as const) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    const report = await dashboardFigures(database.db, dashboardPeriod({ from, bucket }, today), bucket, [siteId], siteId);
    times.push(performance.now() - t0);
    if (run === 0) figure(`year_${bucket}_signups`, report.totals.signups, 'members');
    if (run === 0) figure(`year_${bucket}_visits`, report.totals.visits, 'visits');
  }
  times.sort((a, b) => a - b);
  const [median, p95] = [percentile(times, 50), percentile(times, 95)];
  figure(`dashboard_year_per_${bucket}_median`, Math.round(median), 'ms');
  figure(`dashboard_year_per_${bucket}_p95`, Math.round(p95), 'ms');
  target(median < TARGET_MS, `the dashboard of a year per ${bucket} took ${Math.round(median)} ms (median)`);
}
await database.close();
if (!process.env.BENCH_KEEP) await dropDatabase(DB_NAME);
finish();
