import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrateCommand } from '../cli/migrate-cli.ts';
import { freshDatabase, DATABASE_KINDS, postgresAdmin } from '../../tests/helpers/test-app.ts';
import { openDatabase, type Database } from './client.ts';
import { appliedMigrations, knownMigrations, schemaState } from './schema-version.ts';

const known = knownMigrations();

/** Marks the database as migrated by a newer release: a migration this one does not ship. */
const migrateAhead = (database: Database) => database.db.execute(
  sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${known.newest.when + 60_000})`,
);

describe.each(DATABASE_KINDS)('schema version on %s', (kind) => {
  it('a migrated database is current; one a newer release migrated is ahead; one missing a migration is behind', async () => {
    const database = await freshDatabase(kind);
    try {
      expect(await appliedMigrations(database.db)).toEqual({ count: known.count, newest: known.newest.when });
      expect(await schemaState(database.db)).toEqual({ state: 'current' });
      await migrateAhead(database);
      const ahead = await schemaState(database.db);
      expect(ahead.state).toBe('ahead');
      expect(ahead.state !== 'current' && ahead.message).toContain(`The database schema is newer than this release knows`);
      expect(ahead.state !== 'current' && ahead.message).toContain(known.newest.tag);
      await database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at >= ${known.newest.when}`);
      const behind = await schemaState(database.db);
      expect(behind).toMatchObject({ state: 'behind' });
      expect(behind.state !== 'current' && behind.message).toContain('Run npm run db:migrate');
    } finally {
      await database.drop();
    }
  });

  it('npm run db:migrate migrates an empty database once, and refuses one a newer release migrated', async () => {
    const target = await emptyDatabase(kind);
    try {
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`error: ${l}`), env: target.env };
      expect(await migrateCommand([], io)).toBe(0);
      // The region list comes with the schema (server/geo/regions-sync.ts).
      expect(lines.splice(0)).toEqual([
        `Migrated the database: ${known.count} migration(s) applied, now at ${known.newest.tag}.`,
        expect.stringMatching(/^Regions: \d+ added, 0 renamed, 0 removed\.$/),
      ]);
      expect(await migrateCommand([], io)).toBe(0);
      expect(lines.splice(0)).toEqual([`The database is up to date (${known.newest.tag}); nothing to do.`]);
      const database = await target.open();
      try {
        await migrateAhead(database);
      } finally {
        await database.close();
      }
      expect(await migrateCommand([], io)).toBe(1);
      expect(lines.pop()).toMatch(/^error: The database schema is newer than this release knows/);
    } finally {
      await target.drop();
    }
    // Every migration from nothing and the whole region list, twice over on the embedded database: about 10 s on a
    // quiet core, more on a busy one.
  }, 90_000);
});

describe.skipIf(!inject('pgTemplate'))('migrations under the advisory lock (postgres)', () => {
  it('two migrations started together on an empty database both succeed and apply each migration once', async () => {
    const target = await emptyDatabase('postgres');
    const [a, b, c] = [await target.open(), await target.open(), await target.open()];
    try {
      await Promise.all([a.migrate(), b.migrate(), c.migrate()]);
      expect(await appliedMigrations(a.db)).toEqual({ count: known.count, newest: known.newest.when });
      const rows = await a.db.execute(sql`select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash having count(*) > 1`);
      expect((rows as unknown as { rows: unknown[] }).rows).toEqual([]);
      expect(await schemaState(a.db)).toEqual({ state: 'current' });
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
      await target.drop();
    }
  });
});

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

let counter = 0;
/** A database with nothing in it (not cloned from the migrated template), and the configuration that names it. */
async function emptyDatabase(kind: 'pglite' | 'postgres') {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'amora-migrate-'));
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir: join(dataDir, 'db') }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { baseUrl } = inject('pgTemplate')!;
  const name = `amora_empty_${process.pid}_${++counter}_${Date.now() % 100000}`;
  const admin = postgresAdmin;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const drop = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  cleanups.push(drop);
  return { env: { DATABASE_URL: url.toString() }, open: () => openDatabase({ url: url.toString() }), drop };
}
