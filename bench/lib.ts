/** What every bench scenario shares: `name: value unit` figures, missed targets, a kept-alive HTTP client, databases. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);

const failures: string[] = [];

export function figure(name: string, value: number | string, unit: string) {
  console.log(`${name}: ${typeof value === 'number' ? (Number.isInteger(value) ? value : value.toFixed(2)) : value} ${unit}`);
}

/** Records a missed target; `finish` prints them all and sets the exit code. */
export function target(ok: boolean, what: string) {
  if (!ok) failures.push(what);
}

/** The figures depend on the machine: say what it was doing. */
export function machine(when: 'before' | 'after') {
  if (when === 'before') figure('machine_cpu_cores', os.cpus().length, 'cores');
  figure(`machine_load_1min_${when}`, os.loadavg()[0], 'runnable');
}

export function finish(): never {
  machine('after');
  figure('targets_missed', failures.length, 'targets');
  for (const f of failures) console.error(`MISSED: ${f}`);
  process.exit(failures.length ? 1 : 0);
}

/**
 * Runs a scenario: the machine's state before, `main`, a failure of it counted as a missed target, `cleanup` in any
 * case, then the figures' end (exit code).
 */
export async function runBench(main: () => Promise<void>, cleanup: () => Promise<void> = async () => {}): Promise<never> {
  machine('before');
  try {
    await main();
  } catch (error) {
    console.error(error);
    target(false, error instanceof Error ? error.message : String(error));
  } finally {
    await cleanup();
  }
  return finish();
}

export const baseDatabaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the bench's PostgreSQL server. */
export function databaseUrl(name: string): string {
  const url = new URL(baseDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on the server's maintenance database (CREATE/DROP DATABASE). */
export async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: baseDatabaseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function recreateDatabase(name: string) {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
}

export async function dropDatabase(name: string) {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

export interface Reply { status: number; body: string; headers: http.IncomingHttpHeaders }

/** A GET over a kept-alive connection (node:http: the lightest client, so the figures measure the servers). */
export function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: { host: 'localhost', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** CLIENTS loops, each sending `perClient` requests one after another (keep-alive), like 10 busy browsers. */
export async function load(urls: string[], headers: Record<string, string>, perClient: number) {
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let i = 0; i < perClient; i++) {
      const url = urls[next++ % urls.length];
      const t0 = performance.now();
      const res = await get(url, headers);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.body.slice(0, 200)}`);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), rps: latencies.length / seconds };
}

const started = new Set<ChildProcess>();
/** Stops every process spawnForBench started and waits until they have exited (before the bench drops their database). */
export function stopBenchProcesses(): Promise<unknown> {
  const exits = [...started].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of started) child.kill('SIGKILL');
  return Promise.all(exits);
}
// Whatever ends the bench (a missed target, an error, Ctrl-C), no server or baseline it started keeps running.
process.once('exit', () => void stopBenchProcesses());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopBenchProcesses();
    process.exit(130);
  });
}

/** Starts a process that is stopped with the bench, however the bench ends. */
export function spawnForBench(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

/** The production server (npm run build). */
export const BUILT_SERVER = join(fileURLToPath(new URL('..', import.meta.url)), 'build', 'server', 'main.js');
const START_TIMEOUT_MS = 180_000;

/** Waits until `url` answers below 500 (at most 3 minutes: a busy machine migrates and warms up slowly). */
async function whenAnswering(child: ChildProcess, url: string, headers: Record<string, string> = {}): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    if (await fetch(url, { headers }).then((r) => r.status < 500, () => false)) return;
    await sleep(100);
  }
  child.kill('SIGTERM');
  throw new Error(`${url} did not answer within ${START_TIMEOUT_MS / 1000} s`);
}

/**
 * Starts node with `args` (a server of the bench's or the built one) and only `env` besides PATH, and waits until
 * `readyUrl` answers: a ready probe, or any answer from a bare server.
 */
export async function startNodeProcess(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawnForBench(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  await whenAnswering(child, readyUrl);
  return child;
}

/**
 * Starts the built server on `port` with its data in `dataDir` and its database at `databaseUrl` (and this
 * process's environment), and waits until it answers. `nodeFlags` go to node (profiling).
 */
export async function startBuiltServer(options: { dataDir: string; port: number; databaseUrl: string; nodeFlags?: string[] }): Promise<ChildProcess> {
  const { dataDir, port } = options;
  const child = spawnForBench(process.execPath, [...(options.nodeFlags ?? []), BUILT_SERVER], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: options.databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await whenAnswering(child, `http://127.0.0.1:${port}/api/settings.php`, { host: 'localhost' });
  return child;
}

/** Stops a server started by startBuiltServer and waits until it has exited. */
export async function stopServer(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
}

/**
 * Counts every statement sent to PostgreSQL in this thread (pools, drizzle and transactions all go through
 * `pg.Client#query`): `count()` says how many so far, `stop()` puts the original back.
 */
export function countStatements(): { count: () => number; stop: () => void } {
  let statements = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return { count: () => statements, stop: () => { pg.Client.prototype.query = query; } };
}

/**
 * The baseline of the api and search benches: bare node:http with a pg Pool answering one primary-key query (the
 * member by id) as JSON, what any server must do for a member's JSON answer. `close` ends its pool.
 */
export function primaryKeyBaseline(url: string, userId: number): { server: http.Server; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const server = http.createServer((_req, res) => {
    pool.query('SELECT id, email, status, credits, language, signup_date FROM users WHERE id = $1', [userId]).then(({ rows }) => {
      const body = JSON.stringify({ user: rows[0] });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }, (error: Error) => {
      res.writeHead(500);
      res.end(error.message);
    });
  });
  return { server, close: () => pool.end() };
}
