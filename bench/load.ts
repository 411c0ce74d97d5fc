/**
 * npm run bench -- load: simulated members against the fleet of deploy/ on this machine — two web instances and a
 * worker of the production build on PostgreSQL and Redis, behind nginx with deploy/nginx/amora.conf — ramping up.
 *
 * Each active member holds an open live socket (through the proxy) and, after a think time of THINK_MS on average,
 * does one thing, as members do: opens a page (its single-fetch `.data`), searches, views a profile, likes, writes to
 * another active member (whose socket must receive it), and now and then buys credits (order and test checkout).
 * After a warm-up at the first step, the ramp doubles the active members every STEP_SECONDS; a step is held when its API p99 ≤ 200 ms, its live
 * delivery p99 ≤ 100 ms and nothing answered with an error. The result is the most active members held per core,
 * next to the same ramp of the same requests against two bare node:http + pg servers behind the same nginx (one
 * primary-key query per request, no live sockets), and each instance's event-loop delay p99 per step.
 *
 * Every member is its own client address (X-Forwarded-For through the proxy) and stays far below the per-member
 * limits (a message every 25 s on average against 20 a minute), so the bench measures the fleet, not its limiter.
 * Needs the production build (npm run build) and nginx.
 */
import http from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { AUTH_COOKIE } from '../common/constants.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import { startNginx } from '../tests/helpers/nginx.ts';
import { databaseUrl, dropDatabase, figure, percentile, runBench, spawnForBench, startNodeProcess, stopBenchProcesses, target } from './lib.ts';
import { memberSessions, seedMembers } from './members.ts';

const DB_NAME = 'amora_bench_load';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const STEPS = (process.env.BENCH_LOAD_STEPS ?? '100,200,400,800,1600').split(',').map(Number);
const STEP_SECONDS = Number(process.env.BENCH_LOAD_STEP_SECONDS ?? 15);
const THINK_MS = Number(process.env.BENCH_LOAD_THINK_MS ?? 5000);
const TARGETS = { apiP99Ms: 200, liveP99Ms: 100 };
const CORES = os.cpus().length;

/** What a member does after thinking, with its share of all actions. */
const ACTIONS = [
  ['page', 0.3], ['search', 0.2], ['profile', 0.22], ['like', 0.07], ['message', 0.2], ['purchase', 0.01],
] as const;
type Action = (typeof ACTIONS)[number][0];

function pick(): Action {
  let r = Math.random();
  for (const [action, share] of ACTIONS) {
    if ((r -= share) < 0) return action;
  }
  return 'page';
}

interface Step { members: number; api: number[]; byAction: Map<Action, number[]>; live: number[]; errors: number; firstError?: string; lagP99?: number[] }

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request through the proxy; resolves with the status and body (never rejects: a lost request is status 0). */
function request(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({
      host: '127.0.0.1', port, method, path, agent,
      headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ status: 0, body: 'response error' }));
    });
    req.on('error', (error) => resolve({ status: 0, body: error.message }));
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.end(payload);
  });
}

interface Fleet { port: number; metricsPorts: number[]; live: boolean }

/** Runs the ramp against a fleet; stops at the first step that is not held. */
async function ramp(label: string, fleet: Fleet, ids: number[], cookies: Map<number, string>, packageId: number): Promise<Step[]> {
  const steps: Step[] = [];
  let current: Step | undefined;
  let active = 0;
  let stopping = false;
  const sockets = new Map<number, WebSocket>();
  /** Sends waiting for their delivery: "from>to" → the send's start times, oldest first. */
  const pending = new Map<string, number[]>();
  const fail = (what: string) => {
    if (!current) return;
    current.errors++;
    current.firstError ??= what;
  };

  const openSocket = (id: number) => new Promise<void>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${fleet.port}/api/live`, {
      headers: { host: `localhost:${fleet.port}`, origin: `http://localhost:${fleet.port}`, cookie: `${AUTH_COOKIE}=${cookies.get(id)}`, 'x-forwarded-for': ip(id) },
      perMessageDeflate: false,
    });
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as { type: string; profile_id?: number };
      if (event.type === 'ready') resolve();
      if (event.type !== 'message' || event.profile_id === undefined) return;
      const started = pending.get(`${event.profile_id}>${id}`)?.shift();
      if (started !== undefined) current?.live.push(performance.now() - started);
    });
    ws.on('error', (e) => {
      fail(`live socket: ${e.message}`);
      resolve();
    });
    ws.on('close', () => {
      if (!stopping) fail('a live socket closed');
    });
    sockets.set(id, ws);
  });

  const act = async (i: number) => {
    const id = ids[i];
    const headers = { cookie: `${AUTH_COOKIE}=${cookies.get(id)}`, 'x-forwarded-for': ip(id) };
    const other = ids[(i + 1 + Math.floor(Math.random() * (active - 1))) % active];
    const action = pick();
    const started = performance.now();
    let res: { status: number; body: string };
    switch (action) {
      case 'page': res = await request(fleet.port, 'GET', ['/members.data', '/chats.data', '/likes.data', '/profile.data'][i % 4], headers); break;
      case 'search': res = await request(fleet.port, 'GET', `/api/members.php?min_age=${18 + (i % 20)}&max_age=${40 + (i % 30)}`, headers); break;
      case 'profile': res = await request(fleet.port, 'GET', `/api/profile.php?id=${other}`, headers); break;
      case 'like': res = await request(fleet.port, 'POST', '/api/like.php', headers, { profile_id: other }); break;
      case 'message': {
        const key = `${id}>${other}`;
        if (fleet.live && other !== id) pending.set(key, [...(pending.get(key) ?? []), started]);
        // Each message its own words, as members write them: the same text to five members in an hour is throttled
        // (same_text_throttled), which is the product's rule, not load.
        const n = ++keys;
        res = await request(fleet.port, 'POST', '/api/messages.php', { ...headers, 'idempotency-key': `load-${label}-${id}-${n}` }, { profile_id: other, text: `Hello ${other}, ${id} here (${n})` });
        if (res.status !== 201) pending.get(key)?.pop();
        break;
      }
      case 'purchase': {
        res = await request(fleet.port, 'POST', '/api/order.php', { ...headers, 'idempotency-key': `load-${label}-${id}-${++keys}` }, { package_id: packageId, paymentmethod: 'ideal', withdrawal_consent: true });
        const ref = /"checkout_url":"[^"]*\/(tr_[\w-]+)"/.exec(res.body)?.[1];
        if (res.status === 201 && ref) res = await request(fleet.port, 'POST', '/api/test-checkout.php', headers, { id: ref, outcome: 'paid' });
        break;
      }
    }
    const ms = performance.now() - started;
    current?.api.push(ms);
    current?.byAction.set(action, [...(current.byAction.get(action) ?? []), ms]);
    // Liking someone twice, or liking a member already liked back, is a member's everyday 4xx, not a failure.
    const expected = res.status >= 200 && res.status < 300 || (action === 'like' && res.status === 409);
    if (!expected) fail(`${action} answered ${res.status}: ${res.body.slice(0, 160)}`);
  };

  const member = async (i: number) => {
    // Members start spread over one think time, not all at once.
    await new Promise((r) => setTimeout(r, Math.random() * THINK_MS));
    while (i < active && !stopping) {
      await act(i);
      await new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));
    }
  };

  let keys = 0;
  const loops: Promise<void>[] = [];
  // The first step runs twice: once to warm up (compilation, pools, caches), not counted.
  for (const [n, members] of [STEPS[0], ...STEPS].entries()) {
    if (members > ids.length) break;
    // The new members connect their socket first (not timed), then start.
    if (fleet.live) for (let i = active; i < members; i += 50) await Promise.all(ids.slice(i, Math.min(members, i + 50)).map(openSocket));
    await lagP99(fleet.metricsPorts); // resets the instances' event-loop histograms
    current = { members, api: [], byAction: new Map(), live: [], errors: 0 };
    steps.push(current);
    const from = active;
    active = members;
    for (let i = from; i < members; i++) loops.push(member(i));
    await new Promise((r) => setTimeout(r, STEP_SECONDS * 1000));
    const step = current;
    step.lagP99 = await lagP99(fleet.metricsPorts);
    current = undefined;
    if (n === 0) {
      steps.pop();
      continue;
    }
    const api = [...step.api].sort((a, b) => a - b);
    const live = [...step.live].sort((a, b) => a - b);
    figure(`${label}_${members}_members_api_requests`, api.length, 'requests');
    figure(`${label}_${members}_members_api_p99`, percentile(api, 99) ?? 0, 'ms');
    for (const [action, times] of step.byAction) {
      const sorted = [...times].sort((a, b) => a - b);
      figure(`${label}_${members}_members_${action}_p50_p99`, `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)}`, 'ms');
    }
    if (fleet.live) {
      figure(`${label}_${members}_members_live_deliveries`, live.length, 'messages');
      figure(`${label}_${members}_members_live_p99`, percentile(live, 99) ?? 0, 'ms');
    }
    figure(`${label}_${members}_members_errors`, step.errors, 'requests');
    if (step.firstError) console.error(`${label}, ${members} members: ${step.firstError}`);
    step.lagP99.forEach((ms, n) => figure(`${label}_${members}_members_event_loop_delay_p99_instance${n + 1}`, ms, 'ms'));
    if (!held(step, fleet.live)) break;
  }
  stopping = true;
  active = 0;
  await Promise.all(loops);
  for (const ws of sockets.values()) ws.terminate();
  return steps;
}

function held(step: Step, live: boolean): boolean {
  const api = [...step.api].sort((a, b) => a - b);
  const delivery = [...step.live].sort((a, b) => a - b);
  return step.errors === 0 && (percentile(api, 99) ?? Infinity) <= TARGETS.apiP99Ms
    && (!live || (delivery.length > 0 && percentile(delivery, 99) <= TARGETS.liveP99Ms));
}

const ip = (id: number) => `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`;

/** Each instance's event-loop delay p99 since the last call (prom-client resets its histogram when scraped), in ms. */
async function lagP99(metricsPorts: number[]): Promise<number[]> {
  return Promise.all(metricsPorts.map(async (port) => {
    const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => '');
    return Number(/^nodejs_eventloop_lag_p99_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
  }));
}

/** The bare baseline: node:http + a pg Pool, one primary-key query per request, whatever the path. */
const BASELINE = `
import http from 'node:http';
import pg from 'pg';
import { monitorEventLoopDelay } from 'node:perf_hooks';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const lag = monitorEventLoopDelay({ resolution: 20 });
lag.enable();
http.createServer(async (req, res) => {
  req.resume();
  try {
    const { rows } = await pool.query('SELECT user_id, name FROM profiles WHERE user_id = $1', [Number(process.env.FIRST_ID) + Math.floor(Math.random() * 1000)]);
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(rows[0] ?? null));
  } catch (error) {
    console.error(error);
    res.writeHead(500).end();
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
http.createServer((req, res) => {
  res.end('nodejs_eventloop_lag_p99_seconds ' + lag.percentile(99) / 1e9 + '\\n');
  lag.reset();
}).listen(Number(process.env.METRICS_PORT), '127.0.0.1');
`;

/** Starts a server process and waits until `readyUrl` answers 200 (at most a minute). */
/** nginx in front of two servers, on `port` (the instances name it as their public origin). */
async function proxy(dirs: string[], upstreams: [number, number], port: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'amora-bench-nginx-'));
  dirs.push(dir);
  startNginx({ dir, port, upstreams, workerConnections: 16_384, spawnWith: spawnForBench });
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' }).then(() => true, () => false)) return port;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('nginx did not answer');
}

/** Data folders of the processes and nginx, removed at the end. */
const dirs: string[] = [];

async function main() {
  if (!existsSync('build/server/main.js')) throw new Error('npm run build first: the bench runs the production build');
  figure('bench_think_time', THINK_MS, 'ms');
  figure('bench_step_duration', STEP_SECONDS, 's');
  const { siteId, ids } = await seedMembers(DB_NAME, Math.max(...STEPS));
  const cookies = await memberSessions(DB_NAME, siteId, ids);

  // The baseline first: two bare servers behind the same proxy configuration.
  const baselinePorts = [await freePort(), await freePort()] as [number, number];
  const baselineMetrics = [await freePort(), await freePort()];
  for (const [n, port] of baselinePorts.entries()) {
    await startNodeProcess(['--input-type=module', '-e', BASELINE], { DATABASE_URL: databaseUrl(DB_NAME), PORT: String(port), METRICS_PORT: String(baselineMetrics[n]), FIRST_ID: String(ids[0]) }, `http://127.0.0.1:${port}/`);
  }
  const baseline = await ramp('baseline', { port: await proxy(dirs, baselinePorts, await freePort()), metricsPorts: baselineMetrics, live: false }, ids, cookies, 0);

  const env = {
    NODE_ENV: 'production', HOST: '127.0.0.1', DATABASE_URL: databaseUrl(DB_NAME), REDIS_URL, REDIS_PREFIX: `bench-load-${process.pid}:`,
    SEED_DEMO: 'never', LOG_LEVEL: 'error', TRUST_PROXY: '1', ALLOW_TEST_PAYMENTS: '1',
  };
  const webPorts = [await freePort(), await freePort()] as [number, number];
  const metricsPorts = [await freePort(), await freePort()];
  const proxyPort = await freePort();
  for (const [role, port, metricsPort] of [['worker', await freePort(), await freePort()], ['web', webPorts[0], metricsPorts[0]], ['web', webPorts[1], metricsPorts[1]]] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-load-'));
    dirs.push(dataDir);
    await startNodeProcess(['build/server/main.js'], {
      ...env, AMORA_ROLE: role, PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: dataDir, PUBLIC_URL: `http://localhost:${proxyPort}`,
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('ADMISSION_'))),
    }, `http://127.0.0.1:${port}/readyz`);
  }
  const startedProxy = await proxy(dirs, webPorts, proxyPort);
  const packages = JSON.parse((await request(startedProxy, 'GET', '/api/packages.php', { cookie: `${AUTH_COOKIE}=${cookies.get(ids[0])}` })).body) as { packages: { id: number }[] };
  const fleet = await ramp('fleet', { port: startedProxy, metricsPorts, live: true }, ids, cookies, packages.packages[0].id);

  const most = (steps: Step[], live: boolean) => Math.max(0, ...steps.filter((s) => held(s, live)).map((s) => s.members));
  const fleetHeld = most(fleet, true);
  const baselineHeld = most(baseline, false);
  figure('fleet_active_members_held', fleetHeld, 'members');
  figure('fleet_active_members_held_per_core', fleetHeld / CORES, 'members/core');
  figure('baseline_active_members_held', baselineHeld, 'members');
  figure('baseline_active_members_held_per_core', baselineHeld / CORES, 'members/core');
  if (baselineHeld) figure('fleet_share_of_baseline', (100 * fleetHeld) / baselineHeld, '%');
  if (fleetHeld === Math.max(...STEPS)) console.log('The fleet held the largest step: raise BENCH_LOAD_STEPS to find its limit.');
  target(fleetHeld > 0, `the fleet held no step (API p99 ≤ ${TARGETS.apiP99Ms} ms, live p99 ≤ ${TARGETS.liveP99Ms} ms, no errors)`);
}

await runBench(main, async () => {
  await stopBenchProcesses();
  if (!process.env.BENCH_KEEP) await dropDatabase(DB_NAME).catch(() => undefined);
  for (const dir of dirs) rmSync(dir, { force: true, recursive: true });
});
