/**
 * npm run bench -- chat: the live chat on PostgreSQL and Redis, against a bare `ws` forwarding server
 * measured in the same run.
 *
 * - latency from a send (POST /api/messages.php) to the recipient's open socket, p50/p99, with 1,000
 *   members connected to one instance, and across two instances (sender on one, recipient on the other,
 *   Redis pub/sub between them); the baseline forwards a frame from one socket to another. The targets
 *   apply at a steady LATENCY_RATE sends per second (100: each of the 1,000 members sends every 10 s),
 *   timed from when each send was due, so a slow answer also delays the count of the ones behind it; the
 *   same sends as fast as 20 senders can go (the server saturated, latency mostly queueing) are printed
 *   as `*_saturated_*` without a target;
 * - of 10,000 messages (10% of them retried with the same idempotency key), how many never reached the
 *   recipient's socket and how many arrived twice, and that each is stored and charged once;
 * - paid sends per second (ledger debit, message, outbox row in one transaction) through the chat service;
 * - memory per open connection of the real server against the bare `ws` server.
 *
 * Needs the production build (npm run build); creates the database amora_bench_chat on BENCH_DATABASE_URL's
 * server and drops it at the end. Prints `name: value unit` lines; exits with 1 when a target is missed.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { countStatements, startNodeProcess, stopServer } from './lib.ts';
import { memberSessions, paced, seedMembers } from './members.ts';
import { WebSocket } from 'ws';
import { openDatabase } from '../server/db/client.ts';
import { systemClock } from '../server/infra/clock.ts';
import { createLogger } from '../server/infra/logger.ts';
import { localStorage } from '../server/infra/storage.ts';
import { createServices } from '../server/services.ts';
import { AUTH_COOKIE } from '../common/constants.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import { actorFor } from '../server/actor.ts';

const CLIENTS = Number(process.env.BENCH_CHAT_CLIENTS ?? 1000);
const LATENCY_SENDS = Number(process.env.BENCH_CHAT_LATENCY_SENDS ?? 2000);
const DELIVERY_SENDS = Number(process.env.BENCH_CHAT_DELIVERY_SENDS ?? 10_000);
const PAID_SENDS = Number(process.env.BENCH_CHAT_PAID_SENDS ?? 5000);
const LATENCY_RATE = Number(process.env.BENCH_CHAT_LATENCY_RATE ?? 100);
const WARMUP_SENDS = Number(process.env.BENCH_CHAT_WARMUP_SENDS ?? 1000);
const CONCURRENCY = 20;
const TARGETS = { p99OneMs: 50, p99TwoMs: 100, paidPerSecond: 1000, memoryFactor: 2 };
const DB_NAME = 'amora_bench_chat';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchUrl = new URL(baseUrl);
benchUrl.pathname = `/${DB_NAME}`;

const failures: string[] = [];
const figure = (name: string, value: number, unit: string) => console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}`);
const target = (ok: boolean, what: string) => { if (!ok) failures.push(what); };
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};


async function admin(sql: string) {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * Each phase that sends through the API has senders of its own, so no member's sends add up across phases
 * to the chat's per-member rate limit (20 a minute): the bench measures delivery, not the limiter, and runs
 * again right after a run.
 */
const SENDER_GROUPS = ['warmup', 'latency', 'saturated', 'twoInstances', 'delivery'] as const;

/** The database: the demo site, CLIENTS recipients and CLIENTS senders per phase, confirmed members with credits. */
async function seed() {
  const { siteId, ids } = await seedMembers(DB_NAME, CLIENTS * (1 + SENDER_GROUPS.length));
  const senders = Object.fromEntries(SENDER_GROUPS.map((group, n) => [group, ids.slice((n + 1) * CLIENTS, (n + 2) * CLIENTS)])) as Record<(typeof SENDER_GROUPS)[number], number[]>;
  return { siteId, senders, recipients: ids.slice(0, CLIENTS) };
}

const sessions = (siteId: number, ids: number[]) => memberSessions(DB_NAME, siteId, ids);

interface Proc { child: ChildProcess; port: number; rssMb(): number }

async function startProc(args: string[], env: Record<string, string>, readyUrl: string): Promise<Proc> {
  const child = await startNodeProcess(args, env, readyUrl);
  const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { child, port: Number(env.PORT), rssMb };
}

/**
 * The saturated, delivery and paid phases send as fast as the instances answer: admission control (measured by the
 * overload bench) would refuse some of them, so here it keeps a fixed limit of requests at once, as the output says.
 */
const ADMISSION = { ADMISSION_TARGET_MS: '0', ADMISSION_MAX_DELAY_MS: '0' };

const startSite = async (prefix: string) => {
  const port = await freePort();
  return startProc(['build/server/main.js'], {
    NODE_ENV: 'production', PORT: String(port), DATABASE_URL: benchUrl.toString(), REDIS_URL, REDIS_PREFIX: prefix, SEED_DEMO: 'never',
    LOG_LEVEL: 'error', DATA_DIR: mkdtempSync(join(tmpdir(), 'amora-bench-chat-data-')), ...ADMISSION,
  }, `http://127.0.0.1:${port}/readyz`);
};

/** The baseline: a bare `ws` server that forwards each frame {to} to that client's socket. */
const BASELINE = `
import { WebSocketServer } from 'ws';
const wss = new WebSocketServer({ port: Number(process.env.PORT), perMessageDeflate: false });
const byId = new Map();
wss.on('connection', (ws, req) => {
  const id = new URL(req.url, 'http://x').searchParams.get('id');
  byId.set(id, ws);
  ws.on('message', (data) => { const m = JSON.parse(data); byId.get(String(m.to))?.send(JSON.stringify({ type: 'message', profile_id: m.from })); });
  ws.on('close', () => byId.delete(id));
});
`;

/** Hands each `message` event the socket of member `to` receives to onEvent(to, sender). */
function listen(ws: WebSocket, to: number, onEvent: (to: number, from: number) => void) {
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as { type: string; profile_id?: number };
    if (event.type === 'message' && event.profile_id !== undefined) onEvent(to, event.profile_id);
  });
}

/** Opens one socket per member (in the order of `ids`); each incoming `message` event is handed to onEvent(recipient, sender). */
async function connect(url: (id: number) => string, ids: number[], headers: (id: number) => Record<string, string>, onEvent: (to: number, from: number) => void) {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(ids.slice(i, i + 50).map((id) => new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url(id), { headers: headers(id), perMessageDeflate: false });
      listen(ws, id, onEvent);
      ws.once('open', () => resolve());
      ws.once('error', reject);
      sockets.push(ws);
    })));
  }
  return sockets;
}

/** Runs `count` jobs with CONCURRENCY at a time. */
async function pool(count: number, job: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await job(next++);
  }));
}

/** A process's resident memory once it settled: the median of 5 readings 200 ms apart, after a second's pause. */
async function steadyRss(proc: Proc) {
  await new Promise((r) => setTimeout(r, 1000));
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(proc.rssMb());
    await new Promise((r) => setTimeout(r, 200));
  }
  return percentile(readings, 50);
}

/** Waits until `done()` holds or `ms` passed. */
async function settle(done: () => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

class Arrivals {
  private waiting = new Map<string, number[]>();
  readonly latencies: number[] = [];
  readonly counts = new Map<string, number>();
  expect(to: number, from: number, at = performance.now()) {
    const key = `${to}:${from}`;
    (this.waiting.get(key) ?? this.waiting.set(key, []).get(key)!).push(at);
  }
  /** Forgets what arrived so far (the warm-up's messages). */
  reset() {
    this.waiting.clear();
    this.latencies.length = 0;
    this.counts.clear();
  }

  arrived = (to: number, from: number) => {
    const key = `${to}:${from}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const sentAt = this.waiting.get(key)?.shift();
    if (sentAt !== undefined) this.latencies.push(performance.now() - sentAt);
  };
}

async function main() {
  if (!existsSync('build/server/main.js')) throw new Error('npm run build first: the bench runs the production build');
  console.log('admission_control: a fixed limit of requests at once (ADMISSION_TARGET_MS=0, ADMISSION_MAX_DELAY_MS=0; npm run bench -- overload measures it)');
  const { siteId, senders: groups, recipients } = await seed();
  const cookies = await sessions(siteId, [...Object.values(groups).flat(), ...recipients]);
  const prefix = `bench-chat-${process.pid}:`;
  const a = await startSite(prefix);
  const b = await startSite(prefix);
  const basePort = await freePort();
  const base = await startProc(['--input-type=module', '-e', BASELINE], { PORT: String(basePort) }, `http://127.0.0.1:${basePort}/`);
  const appHeaders = (port: number) => (id: number) => ({ cookie: `${AUTH_COOKIE}=${cookies.get(id)}`, origin: `http://localhost:${port}` });
  let keys = 0;
  const post = async (port: number, from: number, to: number, key = `bench-${from}-${++keys}`) => {
    const res = await fetch(`http://localhost:${port}/api/messages.php`, {
      method: 'POST',
      headers: { ...appHeaders(port)(from), 'content-type': 'application/json', 'x-request-type': 'client', 'idempotency-key': key },
      body: JSON.stringify({ profile_id: to, text: `hello ${to} from ${from}, ${key}` }),
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`send answered ${res.status}: ${await res.text()}`);
    return key;
  };

  // Memory: each server idle, then with CLIENTS open sockets. A first batch of sockets opened and closed
  // warms both servers up (modules, JIT, pools), so the difference is what the open sockets hold.
  for (const url of [`ws://localhost:${a.port}/api/live`, `ws://localhost:${basePort}/?id=0`]) {
    for (const ws of await connect(() => url, recipients.slice(0, 50), appHeaders(a.port), () => {})) ws.close();
  }
  const idle = { app: await steadyRss(a), base: await steadyRss(base) };

  // 1. Baseline latency: a frame from one socket to another through the bare server.
  const baseArrivals = new Arrivals();
  const baseSockets = await connect((id) => `ws://localhost:${basePort}/?id=${id}`, recipients, () => ({}), baseArrivals.arrived);
  const baseSenders = await connect((id) => `ws://localhost:${basePort}/?id=${id}`, groups.latency.slice(0, CONCURRENCY), () => ({}), () => {});
  await pool(LATENCY_SENDS, async (i) => {
    const from = groups.latency[i % CONCURRENCY];
    const to = recipients[i % recipients.length];
    baseArrivals.expect(to, from);
    baseSenders[i % CONCURRENCY].send(JSON.stringify({ from, to }));
    await settle(() => (baseArrivals.counts.get(`${to}:${from}`) ?? 0) >= Math.floor(i / recipients.length) + 1, 2000);
  });
  const baseRss = await steadyRss(base);
  figure('baseline_ws_p50', percentile(baseArrivals.latencies, 50), 'ms');
  figure('baseline_ws_p99', percentile(baseArrivals.latencies, 99), 'ms');

  // 2. One instance: CLIENTS recipients on A, senders post to A. A first round of sends, not timed, warms
  // the instances up (JIT, connection pools, caches) as traffic would have before.
  const arrivalsA = new Arrivals();
  const appSockets = await connect(() => `ws://localhost:${a.port}/api/live`, recipients, appHeaders(a.port), arrivalsA.arrived);
  const appRss = await steadyRss(a);
  await paced(WARMUP_SENDS, LATENCY_RATE, async (i) => {
    await post(i % 2 ? a.port : b.port, groups.warmup[i % CLIENTS], recipients[(i * 11) % recipients.length]);
  });
  await new Promise((r) => setTimeout(r, 1000));
  arrivalsA.reset();
  await paced(LATENCY_SENDS, LATENCY_RATE, async (i, due) => {
    const from = groups.latency[i % CLIENTS];
    const to = recipients[i % recipients.length];
    arrivalsA.expect(to, from, due);
    await post(a.port, from, to);
  });
  await settle(() => arrivalsA.latencies.length >= LATENCY_SENDS);
  figure('latency_rate', LATENCY_RATE, 'sends/s');
  figure('one_instance_p50', percentile(arrivalsA.latencies, 50), 'ms');
  figure('one_instance_p99', percentile(arrivalsA.latencies, 99), 'ms');
  target(percentile(arrivalsA.latencies, 99) <= TARGETS.p99OneMs, `one instance p99 over ${TARGETS.p99OneMs} ms`);
  const saturatedA = new Arrivals();
  appSockets.forEach((ws, i) => { ws.removeAllListeners('message'); listen(ws, recipients[i], saturatedA.arrived); });
  await pool(LATENCY_SENDS, async (i) => {
    const from = groups.saturated[i % CLIENTS];
    const to = recipients[i % recipients.length];
    saturatedA.expect(to, from);
    await post(a.port, from, to);
  });
  await settle(() => saturatedA.latencies.length >= LATENCY_SENDS);
  figure('one_instance_saturated_p50', percentile(saturatedA.latencies, 50), 'ms');
  figure('one_instance_saturated_p99', percentile(saturatedA.latencies, 99), 'ms');
  for (const ws of appSockets) ws.close();

  // 3. Two instances: recipients on B, senders post to A.
  const arrivalsB = new Arrivals();
  const bSockets = await connect(() => `ws://localhost:${b.port}/api/live`, recipients, appHeaders(b.port), arrivalsB.arrived);
  await paced(LATENCY_SENDS, LATENCY_RATE, async (i, due) => {
    const from = groups.twoInstances[i % CLIENTS];
    const to = recipients[i % recipients.length];
    arrivalsB.expect(to, from, due);
    await post(a.port, from, to);
  });
  await settle(() => arrivalsB.latencies.length >= LATENCY_SENDS);
  figure('two_instances_p50', percentile(arrivalsB.latencies, 50), 'ms');
  figure('two_instances_p99', percentile(arrivalsB.latencies, 99), 'ms');
  target(percentile(arrivalsB.latencies, 99) <= TARGETS.p99TwoMs, `two instances p99 over ${TARGETS.p99TwoMs} ms`);

  // 4. Delivery: DELIVERY_SENDS messages across the two instances, one in ten retried with its key.
  const delivered = new Arrivals();
  for (const ws of bSockets) ws.removeAllListeners('message');
  bSockets.forEach((ws, i) => listen(ws, recipients[i], delivered.arrived));
  const expected = new Map<string, number>();
  await pool(DELIVERY_SENDS, async (i) => {
    const from = groups.delivery[(i * 13) % CLIENTS];
    const to = recipients[(i * 7) % recipients.length];
    expected.set(`${to}:${from}`, (expected.get(`${to}:${from}`) ?? 0) + 1);
    const key = await post(a.port, from, to, `delivery-${i}`);
    if (i % 10 === 0) await post(b.port, from, to, key);
  });
  const total = () => [...delivered.counts.values()].reduce((s, n) => s + n, 0);
  await settle(() => total() >= DELIVERY_SENDS);
  let lost = 0;
  let duplicated = 0;
  for (const [key, n] of expected) {
    const got = delivered.counts.get(key) ?? 0;
    lost += Math.max(0, n - got);
    duplicated += Math.max(0, got - n);
  }
  const c = new pg.Client({ connectionString: benchUrl.toString() });
  await c.connect();
  const stored = (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE idempotency_key LIKE 'delivery-%'`)).rows[0].n;
  const charged = (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM credit_ledger l JOIN messages m ON l.reference = m.id::text AND l.reason = 'message' WHERE m.idempotency_key LIKE 'delivery-%'`)).rows[0].n;
  await c.end();
  figure('delivery_sent', DELIVERY_SENDS, 'messages');
  figure('delivery_lost', lost, 'messages');
  figure('delivery_duplicated', duplicated, 'messages');
  figure('delivery_stored', stored, 'messages');
  figure('delivery_charged', charged, 'messages');
  target(lost === 0, `${lost} messages never reached the recipient's socket`);
  target(duplicated === 0, `${duplicated} messages reached the recipient twice`);
  target(stored === DELIVERY_SENDS && charged === DELIVERY_SENDS, `stored ${stored} and charged ${charged} of ${DELIVERY_SENDS}`);
  for (const ws of bSockets) ws.close();
  for (const ws of [...baseSockets, ...baseSenders]) ws.close();

  // 5. Memory per connection.
  const perApp = ((appRss - idle.app) * 1024) / CLIENTS;
  const perBase = ((baseRss - idle.base) * 1024) / CLIENTS;
  figure('memory_per_connection_app', perApp, 'KB');
  figure('memory_per_connection_ws_baseline', perBase, 'KB');
  figure('memory_per_connection_ratio', perApp / Math.max(perBase, 0.1), 'x');
  target(perApp <= TARGETS.memoryFactor * Math.max(perBase, 0.1), `memory per connection over ${TARGETS.memoryFactor}× bare ws`);

  // The servers finish their shutdown (their outbox drains what the phases above recorded) before the paid sends are
  // timed: otherwise the paid sends shared the machine with it.
  await Promise.all([a, b, base].map((p) => stopServer(p.child)));

  // 6. Paid sends per second through the chat service (each one transaction: debit, message, outbox row).
  const database = await openDatabase({ url: benchUrl.toString() });
  const services = createServices({ db: database.db, clock: systemClock, storage: localStorage(tmpdir()), logger: createLogger('error') });
  // The server's durable subscribers of a message (server/subscribers.ts), so each send writes its outbox
  // rows as in production; nothing drains them while the sends are timed.
  for (const name of ['mail.new_message', 'push.new_message']) services.events.durable('message.sent', name, () => undefined);
  const started = performance.now();
  await pool(PAID_SENDS, async (i) => {
    await services.chat.send(actorFor(siteId, groups.delivery[i % CLIENTS]), {
      recipientId: recipients[(i * 3) % recipients.length], content: { kind: 'text', text: `paid ${i}` },
      idempotencyKey: `paid-${i}`,
    });
  });
  const perSecond = PAID_SENDS / ((performance.now() - started) / 1000);
  figure('paid_sends_per_second', perSecond, 'sends/s');
  // Round trips to PostgreSQL of one paid send (BEGIN and COMMIT included), as bench/api.ts counts them.
  const counter = countStatements();
  await services.chat.send(actorFor(siteId, groups.delivery[0]), {
    recipientId: recipients[1], content: { kind: 'text', text: 'counted' }, idempotencyKey: 'paid-counted',
  });
  counter.stop();
  figure('paid_send_statements', counter.count(), 'statements');
  target(perSecond >= TARGETS.paidPerSecond, `paid sends ${perSecond.toFixed(0)}/s, under ${TARGETS.paidPerSecond}/s`);
  await services.events.settle();
  await database.close();
}

try {
  await main();
} catch (error) {
  console.error(error);
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  if (!process.env.BENCH_KEEP) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => undefined);
}
if (failures.length) {
  console.error(`\nTargets missed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\nAll chat targets met.');
process.exit(0);
