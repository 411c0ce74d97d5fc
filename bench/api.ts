/**
 * npm run bench -- api: authenticated API requests against the cheapest server that could answer them.
 *
 * Creates the database amora_bench_api (dropped again at the end), seeds the demo site plus conversations for
 * the demo member, logs in, then measures requests/s of GET /api/user.php and GET /api/chats.php with 10
 * kept-alive clients, next to a bare node:http + pg Pool server that runs one query (the member by id) per
 * request. It also counts the SQL statements one request costs: the request context alone (an authenticated
 * request to an unknown API path, without the locale cookie, so the context has to load the member for the
 * language) and each endpoint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { AUTH_COOKIE } from '../common/constants.ts';
import { openDatabase } from '../server/db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { CLIENTS, databaseUrl, dropDatabase, figure, finish, get, load, machine, recreateDatabase, target } from './lib.ts';

const DB_NAME = 'amora_bench_api';
const REQUESTS_PER_CLIENT = Number(process.env.BENCH_REQUESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONVERSATIONS = 30;
const MIN_SHARE_OF_BASELINE = 0.6;
const MAX_CONTEXT_QUERIES = 2;
const url = databaseUrl(DB_NAME);

async function seed(): Promise<number> {
  await recreateDatabase(DB_NAME);
  const database = await openDatabase({ url });
  await database.migrate();
  const photosDir = mkdtempSync(join(tmpdir(), 'amora-bench-photos-'));
  const { demoUserId } = await seedDemoSite(database.db, { photosDir, clock: systemClock, profileCount: CONVERSATIONS + 10 });
  await database.close();
  rmSync(photosDir, { recursive: true, force: true });
  // The demo member chats with CONVERSATIONS members, 6 messages each, the newest ones partly unread.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`
    WITH others AS (SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT ${CONVERSATIONS}),
    conv AS (
      INSERT INTO conversations (user_low, user_high, last_message_at)
      SELECT least($1, id), greatest($1, id), now() - id * interval '1 minute' FROM others RETURNING id, user_low, user_high),
    members AS (
      INSERT INTO conversation_members (conversation_id, user_id, unread_count)
      SELECT conv.id, u, CASE WHEN u = $1 THEN conv.id % 3 ELSE 0 END FROM conv, unnest(ARRAY[user_low, user_high]) u RETURNING 1)
    INSERT INTO messages (conversation_id, sender_id, body)
    SELECT conv.id, CASE WHEN g % 2 = 0 THEN $1 ELSE CASE WHEN conv.user_low = $1 THEN conv.user_high ELSE conv.user_low END END,
      'Message ' || g || ' of conversation ' || conv.id
    FROM conv, generate_series(1, 6) g`, [demoUserId]);
  await c.query('ANALYZE');
  await c.end();
  return demoUserId;
}

async function main() {
  machine('before');
  figure('bench_clients', CLIENTS, 'clients');
  figure('bench_requests_per_run', CLIENTS * REQUESTS_PER_CLIENT, 'requests');
  const userId = await seed();
  const worker = new Worker(new URL('./api-worker.mjs', import.meta.url), { workerData: { url, userId } });
  const ask = <T>(message: string) => new Promise<T>((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(message);
  });
  try {
    const { appPort, baselinePort } = await new Promise<{ appPort: number; baselinePort: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const base = `http://127.0.0.1:${appPort}`;
    const login = await fetch(`${base}/api/user.php`, {
      method: 'POST', headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]);
    const headers = { cookie: cookies.join('; '), 'x-request-type': 'client' };
    const sessionOnly = { cookie: cookies.filter((c) => c.startsWith(`${AUTH_COOKIE}=`)).join('; '), 'x-request-type': 'client' };

    // Statements per request: the median of 5 sequential requests (the site cache's version stamp is read
    // at most once a second, so an odd request may carry one more).
    const statementsOf = async (path: string, h: Record<string, string>, status: number) => {
      const counts: number[] = [];
      for (let i = 0; i < 5; i++) {
        const before = (await ask<{ statements: number }>('statements')).statements;
        const res = await get(`${base}${path}`, h);
        if (res.status !== status) throw new Error(`${path} answered ${res.status}: ${res.body.slice(0, 200)}`);
        counts.push((await ask<{ statements: number }>('statements')).statements - before);
      }
      return counts.sort((a, b) => a - b)[2];
    };
    const context = await statementsOf('/api/no-such-endpoint.php', sessionOnly, 404);
    figure('api_context_queries', context, 'queries');
    figure('api_context_queries_with_locale_cookie', await statementsOf('/api/no-such-endpoint.php', headers, 404), 'queries');
    target(context <= MAX_CONTEXT_QUERIES, `the request context costs ${context} queries > ${MAX_CONTEXT_QUERIES}`);

    const chats = JSON.parse((await get(`${base}/api/chats.php`, headers)).body) as { chats: unknown[] };
    if (chats.chats.length !== CONVERSATIONS) throw new Error(`chats.php lists ${chats.chats.length} conversations, not ${CONVERSATIONS}`);

    const endpoints = { user: '/api/user.php', chats: '/api/chats.php' };
    for (const [name, path] of Object.entries(endpoints)) figure(`api_${name}_queries`, await statementsOf(path, headers, 200), 'queries');

    // Rounds of baseline, user.php, chats.php one after another: the share of the baseline is taken per
    // round (both under the same machine load), and the median round counts.
    const baselineUrls = [`http://127.0.0.1:${baselinePort}/`];
    const runs: Record<string, { p50: number; p95: number; rps: number; share: number }[]> = { baseline: [], user: [], chats: [] };
    for (let round = 0; round <= ROUNDS; round++) {
      const baseline = await load(baselineUrls, {}, REQUESTS_PER_CLIENT);
      const measured = [['baseline', { ...baseline, share: 1 }]] as [string, (typeof runs)['x'][number]][];
      for (const [name, path] of Object.entries(endpoints)) {
        const run = await load([`${base}${path}`], headers, REQUESTS_PER_CLIENT);
        measured.push([name, { ...run, share: run.rps / baseline.rps }]);
      }
      // Round 0 warms every server up.
      if (round > 0) for (const [name, run] of measured) runs[name].push(run);
    }
    const median = (name: string, key: 'p50' | 'p95' | 'rps' | 'share') => runs[name].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs[name].length / 2)];
    figure('bench_rounds', ROUNDS, 'rounds');
    figure('baseline_node_http_pg_p50', median('baseline', 'p50'), 'ms');
    figure('baseline_node_http_pg_throughput', Math.round(median('baseline', 'rps')), 'req/s');
    for (const [name, path] of Object.entries(endpoints)) {
      const share = median(name, 'share');
      figure(`api_${name}_p50`, median(name, 'p50'), 'ms');
      figure(`api_${name}_p95`, median(name, 'p95'), 'ms');
      figure(`api_${name}_throughput`, Math.round(median(name, 'rps')), 'req/s');
      figure(`api_${name}_share_of_baseline`, Math.round(share * 100), '%');
      target(share >= MIN_SHARE_OF_BASELINE, `GET ${path}: ${Math.round(share * 100)}% of the baseline's requests/s < ${MIN_SHARE_OF_BASELINE * 100}%`);
    }
  } finally {
    worker.postMessage('close');
    await new Promise((r) => worker.once('exit', r));
    if (!process.env.BENCH_KEEP) await dropDatabase(DB_NAME);
  }
  finish();
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
