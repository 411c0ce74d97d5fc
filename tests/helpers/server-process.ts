import { join } from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { seedDemoSite } from '../../server/seed/seed.ts';
import { systemClock } from '../../server/infra/clock.ts';
import { ROOT_DIR } from '../../server/paths.ts';
import { clonePostgresTemplate, type DatabaseKind } from './test-app.ts';
import { spawnListening, type ListeningProcess } from './listening-process.ts';
export { freePort } from './free-port.ts';

/** Real server processes for tests that need them (shutdown, several instances). */


export interface Prepared { env: Record<string, string>; cleanup(): Promise<void> }

/** A migrated, lightly seeded database the server process starts on. */
export async function prepareServerDatabase(kind: DatabaseKind, dataDir: string): Promise<Prepared> {
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: join(dataDir, 'db') });
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(dataDir, 'photos'), clock: systemClock, profileCount: 5 });
    await database.close();
    return { env: {}, cleanup: async () => {} };
  }
  const clone = await clonePostgresTemplate();
  const database = await openDatabase({ url: clone.url });
  await seedDemoSite(database.db, { photosDir: join(dataDir, 'photos'), clock: systemClock, profileCount: 5 });
  await database.close();
  return { env: { DATABASE_URL: clone.url, SEED_DEMO: 'never' }, cleanup: clone.drop };
}

export function startServer(env: Record<string, string>): ListeningProcess {
  // The dev viewers are on, as for local work, unless the test says otherwise. Admission control's load signals
  // stay off (a busy test machine is not an overloaded site) unless the test sets them.
  return spawnListening(['--import', 'tsx', 'server/main.ts'], {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DEV_TOOLS: '1', ADMISSION_TARGET_MS: '0', ADMISSION_MAX_DELAY_MS: '0', ...env,
  }, ROOT_DIR);
}
