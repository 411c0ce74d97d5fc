import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { MIGRATIONS_DIR } from '../paths.ts';

/**
 * The key of the PostgreSQL advisory lock that migrations run under (any fixed number; "amora" in ASCII): two
 * `npm run db:migrate` at once, or two instances migrating at start, take turns instead of racing.
 */
export const MIGRATION_LOCK_KEY = 0x616d6f7261;

/** The migrations this release ships (server/db/migrations/meta/_journal.json): their count and the newest one. */
export function knownMigrations(dir = MIGRATIONS_DIR): { count: number; newest: { tag: string; when: number } } {
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  const newest = journal.entries.reduce((a, b) => (b.when > a.when ? b : a));
  return { count: journal.entries.length, newest: { tag: newest.tag, when: newest.when } };
}

/** A raw query's rows, from either driver (both answer with { rows }). */
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The migrations applied to this database (drizzle's own table; absent before the first migration). */
export async function appliedMigrations(db: Db): Promise<{ count: number; newest: number | null }> {
  const [table] = await rows<{ name: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
  if (!table?.name) return { count: 0, newest: null };
  const [row] = await rows<{ count: number; newest: string | null }>(db, sql`select count(*)::int as count, max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  return { count: Number(row.count), newest: row.newest === null ? null : Number(row.newest) };
}

export type SchemaState = { state: 'current' } | { state: 'behind' | 'ahead'; message: string };

/**
 * Whether this release and the database's schema fit: `ahead` when the database has a migration newer than any this
 * release ships (a newer release migrated it; this one would write rows the new schema does not expect), `behind`
 * when this release has migrations the database has not run yet.
 */
export async function schemaState(db: Db, known = knownMigrations()): Promise<SchemaState> {
  const applied = await appliedMigrations(db);
  if (applied.newest !== null && applied.newest > known.newest.when) {
    return {
      state: 'ahead',
      message: `The database schema is newer than this release knows: it has a migration from ${new Date(applied.newest).toISOString()}, `
        + `and the newest this release ships is ${known.newest.tag} (${new Date(known.newest.when).toISOString()}). `
        + 'Start the release that migrated it (or a newer one); this one refuses to run on it.',
    };
  }
  if (applied.newest === null || applied.newest < known.newest.when) {
    return {
      state: 'behind',
      message: `The database has ${applied.count} of this release's ${known.count} migrations (the newest, ${known.newest.tag}, is missing). `
        + 'Run npm run db:migrate (the migration Job in Kubernetes) before starting instances that do not migrate.',
    };
  }
  return { state: 'current' };
}
