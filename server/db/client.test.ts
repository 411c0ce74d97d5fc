import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from './client.ts';
import { clonePostgresTemplate, DATABASE_KINDS } from '../../tests/helpers/test-app.ts';
import { startTcpProxy, type TcpProxy } from '../../tests/helpers/tcp-proxy.ts';
import { isUnavailableError } from '../infra/unavailable.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!DATABASE_KINDS.includes('postgres'))('PostgreSQL connections', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const clone = await clonePostgresTemplate();
    drop = clone.drop;
    database = await openDatabase({ url: clone.url });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('run without parallel query workers on every connection of the pool, from its first statement', async () => {
    // More statements at once than the pool has connections, so that every connection answers one.
    const settings = await Promise.all(Array.from({ length: 25 }, async () => {
      const result = await database.db.execute(sql`select current_setting('max_parallel_workers_per_gather') as value, pg_sleep(0.02)`);
      return (result as unknown as { rows: { value: string }[] }).rows[0].value;
    }));
    expect(new Set(settings)).toEqual(new Set(['0']));
  });

  it('run named statements with their generic plan, and every other statement planned for its values', async () => {
    const named = database.db.select({ mode: sql<string>`current_setting('plan_cache_mode')`, workers: sql<string>`current_setting('max_parallel_workers_per_gather')` })
      .from(sql`(select pg_sleep(0.02)) as pause`).prepare('plan_cache_mode_of_named');
    const modes = await Promise.all(Array.from({ length: 12 }, async (_, i) => {
      if (i % 2) return (await named.execute())[0];
      const result = await database.db.execute(sql`select current_setting('plan_cache_mode') as mode, current_setting('max_parallel_workers_per_gather') as workers, pg_sleep(0.02), ${i}::int as i`);
      return (result as unknown as { rows: { mode: string; workers: string }[] }).rows[0];
    }));
    expect(modes.filter((_, i) => i % 2).map((m) => m.mode)).toEqual(Array(6).fill('force_generic_plan'));
    expect(modes.filter((_, i) => !(i % 2)).map((m) => m.mode)).toEqual(Array(6).fill('auto'));
    expect(new Set(modes.map((m) => m.workers))).toEqual(new Set(['0']));
    // Inside a transaction, a statement goes on the transaction's connection.
    const inside = await database.db.transaction(async (tx) => rowsOf<{ mode: string }>(await tx.execute(sql`select current_setting('plan_cache_mode') as mode`))[0].mode);
    expect(inside).toBe('auto');
  });
});

describe.skipIf(!DATABASE_KINDS.includes('postgres'))('a server\'s connections to a database that goes silent', { timeout: 30_000 }, () => {
  let database: Database;
  let proxy: TcpProxy;
  let drop: () => Promise<void>;
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  beforeAll(async () => {
    const clone = await clonePostgresTemplate();
    drop = clone.drop;
    const url = new URL(clone.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = proxy.address;
    process.on('warning', onWarning);
    // As the server opens it: no statement timeout, a second to connect.
    database = await openDatabase({ url: url.toString(), timeouts: { connectMs: 1_000, statementMs: 0 } });
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await database?.close();
    await proxy?.close();
    await drop?.();
  });

  const statement = async (query: ReturnType<typeof sql>) => {
    const started = performance.now();
    const error = await database.db.execute(query).then(() => null, (e: unknown) => e);
    return { error, ms: performance.now() - started };
  };

  it('let a slow statement of a database that answers run to its end, however long it takes', async () => {
    const slow = await statement(sql`select pg_sleep(2.5)`);
    expect(slow.error).toBeNull();
    expect(slow.ms).toBeGreaterThan(2_400);
    expect(warnings.filter((w) => w.includes('does not answer'))).toEqual([]);
  });

  it('end statements that wait on a partitioned database within 2 s as unavailable, fail new ones as fast, and recover when it returns', async () => {
    // Two connections in the pool: one runs a long statement, one idles.
    await Promise.all([database.db.execute(sql`select 1`), database.db.execute(sql`select 1`)]);
    const waiting = statement(sql`select pg_sleep(8)`);
    await sleep(200);
    proxy.cut('partition');
    try {
      const cut = await waiting;
      expect(isUnavailableError(cut.error), String(cut.error)).toBe(true);
      expect(cut.ms).toBeLessThan(200 + 2_000);
      // While it stays away: the idle connection was closed too, a new one does not open, and the request fails within the connection timeout.
      const next = await statement(sql`select 1`);
      expect(isUnavailableError(next.error), String(next.error)).toBe(true);
      expect(next.ms).toBeLessThan(2_000);
      expect(warnings.some((w) => w.includes('PostgreSQL does not answer'))).toBe(true);
    } finally {
      proxy.restore();
    }
    expect((await statement(sql`select 1`)).error).toBeNull();
  });
});
