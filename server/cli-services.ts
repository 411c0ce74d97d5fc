import { join, resolve } from 'node:path';
import { openDatabase } from './db/client.ts';
import { loadEnv } from './env.ts';
import { systemClock } from './infra/clock.ts';
import { photoStorageFromEnv } from './infra/storage.ts';
import { ROOT_DIR } from './paths.ts';
import { createServices, type Services } from './services.ts';

/** For operator commands: the configured database (migrated) and the services over it, closed afterwards. */
export async function withServices<T>(run: (services: Services) => Promise<T>): Promise<T> {
  const env = loadEnv();
  const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
  try {
    await database.migrate();
    return await run(createServices({ db: database.db, clock: systemClock, storage: photoStorageFromEnv(env, join(dataDir, 'photos')), config: env }));
  } finally {
    await database.close();
  }
}
