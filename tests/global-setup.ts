import { Redis } from 'ioredis';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migratedPgliteSnapshot, openDatabase } from '../server/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated template database on the PostgreSQL server, or null when none is reachable. */
    pgTemplate: { baseUrl: string; template: string } | null;
    /** A file holding a migrated, empty PGlite data directory, from which each test's embedded database starts. */
    pgliteSnapshot: string;
    /** The Redis server the multi-instance tests share, or null when none is reachable. */
    redisUrl: string | null;
  }
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis server answers at `url`, within a second. */
async function redisAnswers(url: string): Promise<string | null> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  probe.on('error', () => {}); // the failure is the connect() rejection below
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG' ? null : 'no PONG';
  } catch (error) {
    return (error as Error).message;
  } finally {
    probe.disconnect();
  }
}

/**
 * The Redis server of the tests that run two instances over one Redis. CI sets REQUIRE_REDIS=1 (as
 * REQUIRE_POSTGRES=1), so those tests fail instead of skipping when Redis is down.
 */
async function provideRedis(project: TestProject) {
  const url = process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
  const failure = await redisAnswers(url);
  if (failure && process.env.REQUIRE_REDIS === '1') throw new Error(`Redis is required but not reachable at ${url}: ${failure}`);
  if (failure) console.warn(`Redis not reachable at ${url}: the tests of instances sharing Redis are skipped.`);
  project.provide('redisUrl', failure ? null : url);
}

/**
 * Migrates one template database; each test file then clones it (CREATE DATABASE … TEMPLATE),
 * so every file gets a fresh, migrated PostgreSQL database in milliseconds.
 */
export default async function setup(project: TestProject) {
  await provideRedis(project);
  const snapshotDir = mkdtempSync(join(tmpdir(), 'amora-pglite-'));
  const snapshot = join(snapshotDir, 'migrated.tar');
  writeFileSync(snapshot, Buffer.from(await (await migratedPgliteSnapshot()).arrayBuffer()));
  project.provide('pgliteSnapshot', snapshot);
  const removeSnapshot = () => rmSync(snapshotDir, { recursive: true, force: true });
  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_URL;
  const template = `amora_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL is required but not reachable at ${url}: ${(error as Error).message}`, { cause: error });
    console.warn(`PostgreSQL not reachable at ${url}: integration tests run on PGlite only.`);
    project.provide('pgTemplate', null);
    return removeSnapshot;
  }
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  const database = await openDatabase({ url: templateUrl.toString() });
  await database.migrate();
  await database.close();
  project.provide('pgTemplate', { baseUrl: url, template });

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${template}%`]);
    for (const row of rows.reverse()) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
    removeSnapshot();
  };
}
