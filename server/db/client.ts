import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';
import { MIGRATIONS_DIR } from '../paths.ts';
import { MIGRATION_LOCK_KEY } from './schema-version.ts';
import { probeDatabase, watchReachability } from './reachability.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The rows of a raw `db.execute(sql`…`)`, typed by the caller (both drivers answer `{ rows }`). */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The pool's connections (PostgreSQL); null for PGlite, which has one connection and no pool. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
}

/**
 * How long a server's connection to PostgreSQL may take to open (or a request wait for a free one in the pool), and,
 * when the operator sets one, how long one statement may run (0: no limit).
 */
export interface DatabaseTimeouts { connectMs: number; statementMs: number }

/** The driver gives up a little after the server's statement_timeout: the server's cancel is the usual end, this the backstop when no answer comes. */
const QUERY_TIMEOUT_MARGIN_MS = 250;
/**
 * TCP keepalive on every connection, after this long without traffic (the kernel's default is two hours): the
 * backstop that closes a connection whose peer vanished, such as one held through a long statement or transaction,
 * after about 11 minutes (Linux then probes every 75 s, nine times; Node sets only the idle time). What notices a
 * silent database within seconds is watchReachability (server/db/reachability.ts).
 */
const KEEPALIVE_IDLE_MS = 5_000;

/**
 * PostgreSQL when a URL is given, otherwise the embedded PGlite in `dataDir` (or in memory). An in-memory
 * PGlite may start from `snapshot`, a data directory saved by `pgliteSnapshot()`, instead of an empty one.
 */
export async function openDatabase(options: { url?: string; dataDir?: string | null; snapshot?: Blob; timeouts?: DatabaseTimeouts }): Promise<Database> {
  if (options.url) {
    // No parallel query workers: every statement of this application is a short lookup or a bounded walk
    // of an index (search counts stop at 1,001 rows), where starting workers costs more than it saves and
    // the planner would still pick them for broad filters on a large table. Set on each new connection before
    // the pool hands it out (not as a startup option, which poolers may refuse); a connection that cannot
    // take it is not used.
    const timeouts = options.timeouts;
    const statementMs = timeouts?.statementMs ?? 0;
    const settings = ['SET max_parallel_workers_per_gather = 0', ...(statementMs ? [`SET statement_timeout = ${Math.floor(statementMs)}`] : [])];
    const newPool = (max: number, extra: string[] = []) => new pg.Pool({
      connectionString: options.url, max, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
      // A database that does not answer fails the request within seconds (a 503 the client retries), instead of
      // holding it, and every request queued behind it, until the operating system gives up on the connection:
      // opening a connection, and waiting for a free one, take at most connectMs; a connection that goes silent
      // while held is noticed by watchReachability below.
      ...(timeouts ? { connectionTimeoutMillis: timeouts.connectMs } : {}),
      ...(statementMs ? { query_timeout: statementMs + QUERY_TIMEOUT_MARGIN_MS } : {}),
      // pg-pool awaits the promise (its types say void).
      onConnect: async (client: pg.ClientBase) => {
        await client.query([...settings, ...extra].join('; '));
      },
    });
    const pool = newPool(10);
    // The named statements (drizzle's .prepare(name): the session and member look-ups every request makes, the chat
    // list, the look-ups by id of a search's member, of the welcome bonus and of a site's payment account) run on
    // connections of their own that always use the statement's generic plan. PostgreSQL would otherwise
    // plan them again on every execution when it guesses the generic plan dearer (custom plans: about 2 ms of
    // planning for the session with the member's counters, against 0.3 ms of execution). Only on these connections:
    // on a connection with force_generic_plan, the parameterised statements of a search (unnamed) would be planned
    // without their values too.
    const lookups = newPool(5, ['SET plan_cache_mode = force_generic_plan']);
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((config: unknown, ...rest: unknown[]) =>
      (config && typeof config === 'object' && (config as { name?: string }).name ? (lookups.query as (...args: unknown[]) => unknown)(config, ...rest) : query(config, ...rest))) as typeof pool.query;
    const reachability = timeouts
      ? [pool, lookups].map((watched) => watchReachability(watched, {
        probe: probeDatabase({ connectionString: options.url }, timeouts.connectMs),
        onUnreachable: (error) => process.emitWarning(`PostgreSQL does not answer (${error instanceof Error ? error.message : String(error)}): its connections are closed`),
      }))
      : [];
    for (const each of [pool, lookups]) {
      // An idle connection that the server drops (restart, failover) must not crash the process;
      // the pool replaces it on the next query.
      each.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
      // The pool listens for errors of idle connections only: one lost while a request holds it between two statements
      // (inside a transaction) would otherwise end the process. The connection is unusable then, its next statement
      // fails (the request answers 503), and the pool drops it when it comes back.
      each.on('connect', (client) => client.on('error', () => {}));
    }
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      // Under an advisory lock held on a connection of its own: a second migrator waits, then finds nothing left to do.
      // On a connection without the request timeouts: a migration may rewrite a large table.
      migrate: async () => {
        const lock = new pg.Client({ connectionString: options.url });
        await lock.connect();
        try {
          await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(drizzlePg(lock, { schema, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
          await lock.end();
        }
      },
      close: async () => {
        for (const watch of reachability) watch.stop();
        await Promise.all([pool.end(), lookups.end()]);
      },
      poolStats: () => ({
        total: pool.totalCount + lookups.totalCount, idle: pool.idleCount + lookups.idleCount, waiting: pool.waitingCount + lookups.waitingCount,
      }),
    };
  }
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    if (!existsSync(join(options.dataDir, 'PG_VERSION'))) await initPgliteDataDir(options.dataDir);
  }
  const client = await PGlite.create(options.dataDir ?? undefined, { startParams: PGLITE_START_PARAMS, loadDataDir: options.dataDir ? undefined : options.snapshot });
  const db = drizzlePglite(client, { schema, casing: 'snake_case' });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
    poolStats: () => null,
  };
}

/**
 * A migrated, empty in-memory PGlite saved as a data directory: starting from it takes a fraction of
 * creating a database and running every migration again (tests start hundreds).
 */
export async function migratedPgliteSnapshot(): Promise<Blob> {
  const client = await PGlite.create({ startParams: PGLITE_START_PARAMS });
  try {
    await migratePglite(drizzlePglite(client, { schema, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_DIR });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/**
 * PGlite's own start parameters plus a smaller buffer cache: PostgreSQL's default 128 MB of shared buffers
 * live in the WebAssembly memory of this process, for a database that one process uses; with 16 MB the
 * operating system's file cache does the rest (about 140 MB less resident memory).
 */
const PGLITE_START_PARAMS = [
  '--single', '-F', '-O', '-j', '-c', 'search_path=public', '-c', 'exit_on_error=false', '-c', 'log_checkpoints=false',
  '-c', 'max_worker_processes=0', '-c', 'max_parallel_workers=0', '-c', 'max_parallel_workers_per_gather=0', '-c', 'io_method=sync',
  '-c', 'max_parallel_maintenance_workers=0', '-c', 'shared_buffers=16MB',
];

/**
 * A new data directory is created in a short-lived child process: initdb's WebAssembly memory (about 500 MB
 * at its peak) is not returned to the system by this process once allocated, so the server would keep it.
 */
async function initPgliteDataDir(dataDir: string) {
  const code = `const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});
    const client = await PGlite.create(${JSON.stringify(dataDir)});
    await client.close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code]);
}
