/**
 * npm run bench -- memory: resident memory of the built server (node build/server/main.js) once it answers and
 * has settled, on PostgreSQL (its own database amora_bench_memory, seeded with the demo site, dropped at the end)
 * and on the embedded PGlite (a fresh data directory, which seeds itself). Builds first when build/ is missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseUrl, dropDatabase, figure, finish, machine, recreateDatabase, target } from './lib.ts';

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

async function measure(kind: 'postgres' | 'pglite', env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), `amora-bench-memory-${kind}-`));
  const port = 3900 + Math.floor(Math.random() * 1000);
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const started = performance.now();
    await waitUntilAnswering(child, port);
    figure(`memory_${kind}_start`, (performance.now() - started) / 1000, 's');
    await sleep(SETTLE_MS);
    const mb = rssMb(child.pid!);
    figure(`memory_${kind}_rss`, mb, 'MB');
    target(mb <= TARGETS_MB[kind], `${kind}: RSS ${mb} MB > ${TARGETS_MB[kind]} MB`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  machine('before');
  if (!existsSync(SERVER)) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  await recreateDatabase(DB_NAME);
  try {
    await measure('postgres', { DATABASE_URL: databaseUrl(DB_NAME), SEED_DEMO: 'always' });
  } finally {
    await dropDatabase(DB_NAME);
  }
  await measure('pglite', { DATABASE_URL: '' });
  finish();
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
