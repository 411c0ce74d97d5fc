import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from './client.ts';
import { clonePostgresTemplate, DATABASE_KINDS } from '../../tests/helpers/test-app.ts';

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
});
