// `npm run jobs:purge`: deletes for good the accounts deleted more than 14 days ago (the server also does this every hour).
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { createMemoryMailer } from '../infra/mail/transport.ts';
import { photoStorageFromEnv } from '../infra/storage.ts';
import { ROOT_DIR } from '../paths.ts';
import { createServices } from '../services.ts';

const env = loadEnv();
const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
try {
  await database.migrate();
  const storage = photoStorageFromEnv(env, join(dataDir, 'photos'));
  const services = createServices({ db: database.db, clock: systemClock, storage, mail: { mailer: createMemoryMailer() }, config: env });
  const purged = await services.lifecycle.purgeDeletedAccounts();
  console.log(`Purged ${purged} account(s) deleted more than 14 days ago.`);
} finally {
  await database.close();
}
