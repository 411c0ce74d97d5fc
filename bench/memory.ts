/**
 * npm run bench -- memory: resident memory of the built server (node build/server/main.js) once it answers and
 * has settled ~5 s. On PostgreSQL: its own database amora_bench_memory, seeded with the demo site by the bench
 * (a server on PostgreSQL does not seed itself), dropped at the end. On the embedded PGlite: a fresh data
 * directory, which the first start creates and seeds (memory_pglite_first_start_rss), then a restart on it
 * (memory_pglite_rss). Builds first when build/ is missing.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { databaseUrl, dropDatabase, figure, finish, machine, recreateDatabase, spawnForBench, target } from './lib.ts';

const DB_NAME = 'amora_bench_memory';
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);
const START_TIMEOUT_MS = 180_000;
const TARGETS_MB = { postgres: 200, pglite: 300 };
const SERVER = join(import.meta.dirname, '..', 'build', 'server', 'main.js');

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

async function waitUntilAnswering(child: ChildProcess, port: number) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/settings.php`, { headers: { host: 'localhost' } });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`the server did not answer within ${START_TIMEOUT_MS / 1000} s`);
}

async function measure(name: string, env: Record<string, string>, dataDir: string, targetMb: number) {
  const port = 3900 + Math.floor(Math.random() * 1000);
  const child = spawnForBench(process.execPath, [SERVER], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const started = performance.now();
    await waitUntilAnswering(child, port);
    figure(`${name}_ready_after`, (performance.now() - started) / 1000, 's');
    await sleep(SETTLE_MS);
    const mb = rssMb(child.pid!);
    figure(`${name}_rss`, mb, 'MB');
    target(mb <= targetMb, `${name}: RSS ${mb} MB > ${targetMb} MB`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}

async function main() {
  machine('before');
  if (!existsSync(SERVER)) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const pgDir = mkdtempSync(join(tmpdir(), 'amora-bench-memory-postgres-'));
  await recreateDatabase(DB_NAME);
  try {
    const database = await openDatabase({ url: databaseUrl(DB_NAME) });
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(pgDir, 'photos'), clock: systemClock });
    await database.close();
    await measure('memory_postgres', { DATABASE_URL: databaseUrl(DB_NAME) }, pgDir, TARGETS_MB.postgres);
  } finally {
    await dropDatabase(DB_NAME);
    rmSync(pgDir, { recursive: true, force: true });
  }
  const pgliteDir = mkdtempSync(join(tmpdir(), 'amora-bench-memory-pglite-'));
  try {
    await measure('memory_pglite_first_start', { DATABASE_URL: '' }, pgliteDir, TARGETS_MB.pglite);
    await measure('memory_pglite', { DATABASE_URL: '' }, pgliteDir, TARGETS_MB.pglite);
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
  }
  finish();
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
