import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, prepareServerDatabase, startServer, type Prepared } from '../tests/helpers/server-process.ts';
import { openDatabase } from './db/client.ts';
import { jobRuns } from './db/schema.ts';
import { knownMigrations } from './db/schema-version.ts';

const known = knownMigrations();
const TOKEN = 'fleet-metrics-token-0123';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function prepared(kind: 'pglite' | 'postgres'): Promise<Prepared & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-fleet-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const p = await prepareServerDatabase(kind, dataDir);
  cleanups.push(p.cleanup);
  return { ...p, dataDir };
}

/** Opens the prepared database for a moment (PGlite only while no server holds it). */
async function withDatabase<T>(p: Prepared & { dataDir: string }, run: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(p.env.DATABASE_URL ? { url: p.env.DATABASE_URL } : { dataDir: join(p.dataDir, 'db') });
  try {
    return await run(database.db);
  } finally {
    await database.close();
  }
}

const ahead = (db: Parameters<Parameters<typeof withDatabase>[1]>[0]) =>
  db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer-release', ${known.newest.when + 60_000})`);

async function refusal(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const server = startServer({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(await freePort()), LOG_LEVEL: 'info', ...env });
  cleanups.push(() => server.child.kill('SIGKILL'));
  server.ready.catch(() => {});
  return { code: await server.exited, output: server.output() };
}

// Each test starts server processes (and prepares a database): slower than a unit test on a busy machine.
const SLOW = { timeout: 120_000 };

describe('an instance refuses a database schema newer than it knows (pglite)', SLOW, () => {
  it('exits with a message naming the newest migration it ships', async () => {
    const p = await prepared('pglite');
    await withDatabase(p, ahead);
    const { code, output } = await refusal({ ...p.env, DATA_DIR: p.dataDir });
    expect(code).toBe(1);
    expect(output).toContain('Cannot start: The database schema is newer than this release knows');
    expect(output).toContain(known.newest.tag);
  });

  it('a web or worker role needs PostgreSQL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'amora-fleet-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { code, output } = await refusal({ DATA_DIR: dataDir, AMORA_ROLE: 'web' });
    expect(code).toBe(1);
    expect(output).toContain('--role web needs PostgreSQL (DATABASE_URL)');
  });
});

describe.skipIf(!inject('pgTemplate'))('process roles on PostgreSQL', SLOW, () => {
  it('a web instance refuses a newer schema, and one missing a migration (it does not migrate)', async () => {
    const p = await prepared('postgres');
    await withDatabase(p, ahead);
    const newer = await refusal({ ...p.env, DATA_DIR: p.dataDir, AMORA_ROLE: 'web' });
    expect(newer.code).toBe(1);
    expect(newer.output).toContain('Cannot start: The database schema is newer than this release knows');
    await withDatabase(p, (db) => db.execute(sql`delete from drizzle.__drizzle_migrations where created_at >= ${known.newest.when}`));
    const older = await refusal({ ...p.env, DATA_DIR: p.dataDir, AMORA_ROLE: 'web' });
    expect(older.code).toBe(1);
    expect(older.output).toContain(`(the newest, ${known.newest.tag}, is missing). Run npm run db:migrate`);
  });

  it('a web instance runs no scheduled jobs; a worker runs them and serves only the operations endpoints', async () => {
    const p = await prepared('postgres');
    const purgeRuns = () => withDatabase(p, (db) => db.select().from(jobRuns).where(eq(jobRuns.job, 'purge')));
    const start = async (role: string) => {
      const [port, metricsPort] = [await freePort(), await freePort()];
      const server = startServer({
        ...p.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: p.dataDir,
        AMORA_ROLE: role, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info',
      });
      cleanups.push(() => server.child.kill('SIGKILL'));
      await server.ready;
      return { base: `http://127.0.0.1:${port}`, metrics: `http://127.0.0.1:${metricsPort}`, server };
    };
    const web = await start('web');
    expect(web.server.output()).toContain('role web');
    expect((await fetch(`${web.base}/healthz`)).status).toBe(200);
    expect((await fetch(`${web.base}/api/settings.php`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(await purgeRuns()).toEqual([]);

    const worker = await start('worker');
    expect((await fetch(`${worker.base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${worker.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', shutdown: 'ok' } });
    const api = await fetch(`${worker.base}/api/settings.php`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await fetch(`${worker.base}/metrics`)).status).toBe(404);
    for (let i = 0; i < 50 && !(await purgeRuns()).length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await purgeRuns()).toHaveLength(1);
    const metrics = await fetch(`${worker.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/amora_job_runs_total\{job="purge",outcome="ok"\} 1/);
    // The metrics port needs no token, and serves nothing else.
    const scraped = await fetch(`${web.metrics}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/amora_http_requests_total\{method="GET",route="\/api\/settings.php",status="200"\} 1/);
    expect((await fetch(`${web.metrics}/api/settings.php`)).status).toBe(404);
  });
});
