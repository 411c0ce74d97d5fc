/**
 * npm run bench -- ssr: server rendering of `/`, `/members` and `/members/{id}` against renderToString of the same
 * component tree without the router, in the same run.
 *
 * Builds first when build/ is missing or older than the sources. Creates the database amora_bench_ssr (or the one
 * BENCH_SSR_DATABASE names; dropped at the end), seeds the demo site, starts the production server (node build/server/main.js) on it and measures pages/s
 * with 10 kept-alive clients: `/` as a visitor (a member is sent on to /members), `/members` and `/members/{id}`
 * signed in as the demo member (the members area is where members are; the search then starts from their own
 * "looking for"). The requests carry no accept-encoding, so neither side compresses: the figures are about
 * rendering. The baseline (bench/ssr-worker.ts, in a worker thread) answers the same URLs over node:http with
 * renderToString of the build's root layout, default layout, page boundary and route component, fed with the loader
 * data the server produced for that page (its single-fetch answer, `GET /page.data`, fetched once).
 * Rounds alternate baseline and server per page; the median round's share counts. BENCH_SERVER_NODE_FLAGS passes
 * flags to the server's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from 'react-router';
import { openDatabase } from '../server/db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { CLIENTS, databaseUrl, dropDatabase, figure, finish, get, load, machine, recreateDatabase, startBuiltServer, stopServer, target } from './lib.ts';
import { loaderDataOf, type Page } from './ssr-pages.ts';

// Another name (BENCH_SSR_DATABASE) lets two runs share one PostgreSQL server, e.g. a branch and its base.
const DB_NAME = process.env.BENCH_SSR_DATABASE ?? 'amora_bench_ssr';
const REQUESTS_PER_CLIENT = Number(process.env.BENCH_REQUESTS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MIN_SHARE_OF_BASELINE = 0.7;
const ROOT = join(import.meta.dirname, '..');
const SERVER = join(ROOT, 'build', 'server', 'main.js');
const PAGES_BUILD = join(ROOT, 'build', 'server', 'index.js');
const SOURCES = ['app', 'server', 'common', 'locales', 'content'];
const url = databaseUrl(DB_NAME);

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** The pages and the server are measured as built: build when build/ is missing or a source is newer. */
function ensureBuild() {
  const stale = !existsSync(SERVER) || !existsSync(PAGES_BUILD)
    || Math.min(statSync(SERVER).mtimeMs, statSync(PAGES_BUILD).mtimeMs) < Math.max(...SOURCES.map((s) => newestMtime(join(ROOT, s))));
  if (!stale) return;
  console.error('build/ is missing or older than the sources: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'], cwd: ROOT });
  if (build.status !== 0) throw new Error('npm run build failed');
}


/** The loader data the server produces for a page: its single-fetch answer, decoded as the browser would. */
async function serverLoaderData(base: string, path: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path.endsWith('/') ? `${path}_` : path}.data`, { headers: { host: 'localhost', ...headers } });
  if (res.status !== 200 || !res.body) throw new Error(`${path}.data answered ${res.status}`);
  const decoded = await decodeViaTurboStream(res.body, globalThis);
  await decoded.done;
  return loaderDataOf(decoded.value, path);
}

async function main() {
  machine('before');
  figure('bench_clients', CLIENTS, 'clients');
  figure('bench_requests_per_run', CLIENTS * REQUESTS_PER_CLIENT, 'requests');
  ensureBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-ssr-'));
  await recreateDatabase(DB_NAME);
  let server: ChildProcess | undefined;
  let worker: Worker | undefined;
  try {
    const database = await openDatabase({ url });
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(dataDir, 'photos'), clock: systemClock });
    await database.close();

    const port = 3700 + Math.floor(Math.random() * 50);
    server = await startBuiltServer({ dataDir, port, databaseUrl: url, nodeFlags: process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) });
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/user.php`, {
      method: 'POST', headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    const member = { cookie: login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
    const visitor = {};

    const members = await serverLoaderData(base, '/members', member);
    const first = (members.members as { page: { profiles: { id: number }[] } }).page.profiles[0];
    if (!first) throw new Error('/members found no profiles');
    const views: Record<string, { path: string; headers: Record<string, string> }> = {
      index: { path: '/', headers: visitor },
      members: { path: '/members', headers: member },
      members_id: { path: `/members/${first.id}`, headers: member },
    };
    const pages: Record<string, Page> = {};
    for (const view of Object.values(views)) pages[view.path] = { path: view.path, loaderData: await serverLoaderData(base, view.path, view.headers) };

    // The baseline renders with the production React, as the server does.
    worker = new Worker(new URL('./ssr-worker.mjs', import.meta.url), {
      workerData: { buildPath: PAGES_BUILD, pages, nonce: 'bench' }, env: { ...process.env, NODE_ENV: 'production' },
    });
    const baselinePort = await new Promise<number>((resolve, reject) => {
      worker!.once('message', (m: { port: number }) => resolve(m.port));
      worker!.once('error', reject);
    });
    const baselineBase = `http://127.0.0.1:${baselinePort}`;
    for (const [name, view] of Object.entries(views)) {
      const [real, rendered] = [await get(`${base}${view.path}`, view.headers), await get(`${baselineBase}${view.path}`)];
      if (real.status !== 200) throw new Error(`${view.path} answered ${real.status}`);
      if (rendered.status !== 200) throw new Error(`the baseline's ${view.path} answered ${rendered.status}`);
      figure(`ssr_${name}_server_html`, Math.round(Buffer.byteLength(real.body) / 1024), 'KB');
      figure(`ssr_${name}_baseline_html`, Math.round(Buffer.byteLength(rendered.body) / 1024), 'KB');
    }

    // Per page, rounds of baseline then server: both sides of a share see the same machine load; round 0 warms up.
    const runs: Record<string, { baseline: number; server: number; p50: number; baselineP50: number; share: number }[]> = {};
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, view] of Object.entries(views)) {
        const baseline = await load([`${baselineBase}${view.path}`], {}, REQUESTS_PER_CLIENT);
        const real = await load([`${base}${view.path}`], view.headers, REQUESTS_PER_CLIENT);
        if (round > 0) (runs[name] ??= []).push({ baseline: baseline.rps, server: real.rps, p50: real.p50, baselineP50: baseline.p50, share: real.rps / baseline.rps });
      }
    }
    figure('bench_rounds', ROUNDS, 'rounds');
    for (const [name, view] of Object.entries(views)) {
      const median = (key: 'baseline' | 'server' | 'p50' | 'baselineP50' | 'share') => runs[name].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs[name].length / 2)];
      const share = median('share');
      figure(`ssr_${name}_baseline_throughput`, Math.round(median('baseline')), 'pages/s');
      figure(`ssr_${name}_baseline_p50`, median('baselineP50'), 'ms');
      figure(`ssr_${name}_server_throughput`, Math.round(median('server')), 'pages/s');
      figure(`ssr_${name}_server_p50`, median('p50'), 'ms');
      figure(`ssr_${name}_share_of_baseline`, Math.round(share * 100), '%');
      target(share >= MIN_SHARE_OF_BASELINE, `GET ${view.path}: ${Math.round(share * 100)}% of the baseline's pages/s < ${MIN_SHARE_OF_BASELINE * 100}%`);
    }
  } finally {
    if (worker) {
      worker.postMessage('close');
      await new Promise((r) => worker!.once('exit', r));
    }
    if (server) await stopServer(server);
    if (!process.env.BENCH_KEEP) await dropDatabase(DB_NAME);
    rmSync(dataDir, { recursive: true, force: true });
  }
  finish();
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
