/**
 * npm run bench -- lighthouse: Lighthouse (mobile, its default config with simulated throttling) on the production
 * build: `/` and a lander as a visitor, `/members`, `/members/{id}` and `/chats` signed in as the demo member (the
 * session's cookies are put in the browser's cookie jar before each audit of a member's page, and the jar is emptied
 * before a visitor's: Chromium does not send a Cookie given in Lighthouse's extraHeaders with the page's navigation, so
 * the member's pages were audited as a visitor's, `/chats` as the log-in page). Each audit checks whom it saw.
 *
 * Builds first when build/ is missing or older than the sources. Creates the database amora_bench_lighthouse
 * (dropped at the end), seeds the demo site and starts `node build/server/main.js` on it; one Chromium
 * (/usr/bin/chromium, or CHROMIUM_PATH) audits the pages one after another, once the server has rendered each of
 * them a few times (warm, as a running site is). Nothing is downloaded: the browser's background networking,
 * component updates and sync are off, and the pages come from the local server only.
 * Per page: the four category scores (0–100), LCP, TBT and CLS, and for a category below its target the audits that
 * did not pass. BENCH_RUNS (default 1) audits each page that many times and reports the run with the median
 * performance score; BENCH_LIGHTHOUSE_REPORTS=<dir> keeps each run's full JSON report there.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import WebSocket from 'ws';
import { openDatabase } from '../server/db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { databaseUrl, dropDatabase, figure, finish, machine, recreateDatabase, startBuiltServer, stopServer, target } from './lib.ts';
import { CATEGORIES, evaluate, type PageResult, type ReportLike } from './lighthouse-report.ts';

const DB_NAME = 'amora_bench_lighthouse';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;
const LANDER = '/landers/gallery';
const WARM_UP_REQUESTS = 20;
const RECORDING_FAILURES = new Set(['NO_NAVSTART', 'NO_FCP']);
const ROOT = join(import.meta.dirname, '..');
const SERVER = join(ROOT, 'build', 'server', 'main.js');
const SOURCES = ['app', 'server', 'common', 'locales', 'content'];
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const url = databaseUrl(DB_NAME);

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function ensureBuild() {
  if (existsSync(SERVER) && statSync(SERVER).mtimeMs >= Math.max(...SOURCES.map((s) => newestMtime(join(ROOT, s))))) return;
  console.error('build/ is missing or older than the sources: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'], cwd: ROOT });
  if (build.status !== 0) throw new Error('npm run build failed');
}


/**
 * One Lighthouse run of a page. A run whose trace Chromium did not record (NO_NAVSTART, NO_FCP: Lighthouse asks to
 * run it again) is run again, twice at most; any other failure stands.
 */
/** Empties the browser's cookie jar and puts `cookies` (`name=value; …`) in it for `host`, over the DevTools protocol. */
async function setBrowserCookies(port: number, host: string, cookies: string) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let id = 0;
  const send = (method: string, params: object = {}) => new Promise<void>((resolve, reject) => {
    const mine = ++id;
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
      if (message.id !== mine) return;
      socket.off('message', onMessage);
      if (message.error) reject(new Error(`${method}: ${message.error.message}`));
      else resolve();
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id: mine, method, params }));
  });
  try {
    await send('Storage.clearCookies');
    const jar = cookies.split(';').map((c) => c.trim()).filter(Boolean).map((c) => {
      const at = c.indexOf('=');
      return { name: c.slice(0, at), value: c.slice(at + 1), domain: host, path: '/', httpOnly: true, sameSite: 'Lax' };
    });
    if (jar.length) await send('Storage.setCookies', { cookies: jar });
  } finally {
    socket.close();
  }
}

async function audit(port: number, url: string, cookies: string | undefined) {
  for (let attempt = 1; ; attempt++) {
    await setBrowserCookies(port, new URL(url).hostname, cookies ?? '');
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`${url}: Lighthouse gave no result`);
    const code = result.lhr.runtimeError?.code;
    if (!code || !RECORDING_FAILURES.has(code) || attempt === 3) return result;
    console.error(`${url}: ${code}, run again`);
  }
}

function report(name: string, result: PageResult) {
  for (const category of CATEGORIES) figure(`lighthouse_${name}_${category.replace('-', '_')}`, result.scores[category], 'points');
  figure(`lighthouse_${name}_lcp`, Math.round(result.lcpMs), 'ms');
  figure(`lighthouse_${name}_tbt`, Math.round(result.tbtMs), 'ms');
  figure(`lighthouse_${name}_cls`, result.cls.toFixed(3), 'score');
  // Simulated throttling scales the main thread's observed times: a busy machine (a low index) inflates TBT.
  if (result.benchmarkIndex !== null) figure(`lighthouse_${name}_benchmark_index`, Math.round(result.benchmarkIndex), 'points');
  for (const [category, audits] of Object.entries(result.failing)) {
    figure(`lighthouse_${name}_${category.replace('-', '_')}_failing`, audits.length ? audits.join(', ') : '(none scored below 1: rounding)', 'audits');
  }
  for (const miss of result.misses) target(false, miss);
}

async function main() {
  machine('before');
  figure('bench_runs_per_page', RUNS, 'runs');
  ensureBuild();
  if (REPORTS) mkdirSync(REPORTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-lighthouse-'));
  await recreateDatabase(DB_NAME);
  let server: ChildProcess | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    const database = await openDatabase({ url });
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(dataDir, 'photos'), clock: systemClock });
    await database.close();

    const port = 3500 + Math.floor(Math.random() * 100);
    server = await startBuiltServer({ dataDir, port, databaseUrl: url });
    // The site is chosen by host name: the browser asks for localhost, as a visitor's browser would.
    const base = `http://localhost:${port}`;
    const login = await fetch(`${base}/api/user.php`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    const member = { Cookie: login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
    const list = await fetch(`${base}/members`, { headers: member });
    const profileId = /href="\/members\/(\d+)"/.exec(await list.text())?.[1];
    if (list.status !== 200 || !profileId) throw new Error(`/members answered ${list.status} without a profile link`);

    const pages: Record<string, { path: string; headers?: Record<string, string> }> = {
      index: { path: '/' },
      lander: { path: LANDER },
      members: { path: '/members', headers: member },
      members_id: { path: `/members/${profileId}`, headers: member },
      chats: { path: '/chats', headers: member },
    };

    // A running site has served its pages before: each page is rendered a few times first, so the audit does not
    // measure the server's first, unoptimised runs of a route's code (as the api and ssr benches warm up too).
    for (const page of Object.values(pages)) {
      for (let i = 0; i < WARM_UP_REQUESTS; i++) await (await fetch(`${base}${page.path}`, { headers: page.headers })).arrayBuffer();
    }
    chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS, logLevel: 'error' });
    for (const [name, page] of Object.entries(pages)) {
      const runs: PageResult[] = [];
      for (let run = 0; run < RUNS; run++) {
        const result = await audit(chrome.port, `${base}${page.path}`, page.headers?.Cookie);
        // The page audited is the one asked for, as the member or the visitor it was meant for (not a log-in page).
        if (new URL(result.lhr.finalDisplayedUrl).pathname !== page.path) throw new Error(`${page.path} ended at ${result.lhr.finalDisplayedUrl}`);
        if (REPORTS) writeFileSync(join(REPORTS, `${name}-${run + 1}.json`), JSON.stringify(result.lhr, null, 1));
        runs.push(evaluate(page.path, result.lhr as unknown as ReportLike));
      }
      runs.sort((a, b) => a.scores.performance - b.scores.performance);
      report(name, runs[Math.floor(runs.length / 2)]);
    }
  } finally {
    if (chrome) chrome.kill();
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
