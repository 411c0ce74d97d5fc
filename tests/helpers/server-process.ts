import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { seedDemoSite } from '../../server/seed/seed.ts';
import { systemClock } from '../../server/infra/clock.ts';
import { ROOT_DIR } from '../../server/paths.ts';
import { clonePostgresTemplate, type DatabaseKind } from './test-app.ts';
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

export function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT_DIR,
    // Only what the server needs: nothing of the test runner's own configuration leaks in. The dev viewers are on,
    // as for local work, unless the test says otherwise.
    // Admission control's load signals stay off (a busy test machine is not an overloaded site) unless the test sets them.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DEV_TOOLS: '1', ADMISSION_TARGET_MS: '0', ADMISSION_MAX_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listens on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, ready, exited };
}
