// `npm run db:migrate`: runs the database's migrations once, for a fleet whose instances do not migrate at start
// (docs/deploy.md). Under a PostgreSQL advisory lock: two runs at once take turns, the second finds nothing to do.
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { dataDirHolder } from '../db/data-dir-lock.ts';
import { appliedMigrations, knownMigrations, schemaState } from '../db/schema-version.ts';
import { loadEnv } from '../env.ts';
import { syncRegions } from '../geo/regions-sync.ts';
import { ROOT_DIR } from '../paths.ts';
import { CommandLineRefusal, runWhenStarted, type Command } from './cli-services.ts';

export const migrateCommand: Command = async (_args, io) => {
  try {
    const env = loadEnv(io.env);
    const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
    const holder = env.DATABASE_URL ? null : dataDirHolder(dataDir);
    if (holder !== null) throw new CommandLineRefusal(`The embedded database in ${dataDir} is in use by a running server (process ${holder}); it migrates itself at start.`);
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
    try {
      const before = await schemaState(database.db);
      if (before.state === 'ahead') throw new CommandLineRefusal(before.message);
      const { count: had } = await appliedMigrations(database.db);
      await database.migrate();
      const regions = await syncRegions(database.db);
      const { count: has } = await appliedMigrations(database.db);
      const known = knownMigrations();
      io.out(has > had
        ? `Migrated the database: ${has - had} migration(s) applied, now at ${known.newest.tag}.`
        : `The database is up to date (${known.newest.tag}); nothing to do.`);
      if (regions.added + regions.renamed + regions.removed > 0) {
        io.out(`Regions: ${regions.added} added, ${regions.renamed} renamed, ${regions.removed} removed.`);
      }
      return 0;
    } finally {
      await database.close();
    }
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
};

await runWhenStarted(import.meta.url, migrateCommand);
