// `npm run seed`: the demo site, demo profiles and demo member, into an empty database (PGlite or DATABASE_URL).
import { join, resolve } from 'node:path';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { ROOT_DIR } from '../paths.ts';
import { openDatabase } from '../db/client.ts';
import { photoStorageFromEnv } from '../infra/storage.ts';
import { importPageTokens, loadPageTokens } from '../landers/page-tokens.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, isSeeded, seedDemoSite } from '../seed/seed.ts';

const env = loadEnv();
const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
try {
  await database.migrate();
  if (await isSeeded(database.db)) {
    // The short paths of content/page-tokens.json, kept in the database since decision 074: those a site lacks are added.
    const added = await importPageTokens(database.db, loadPageTokens(join(ROOT_DIR, 'content/page-tokens.json')));
    console.log(`The database already has a site; nothing was seeded${added ? `, but ${added} short path(s) of content/page-tokens.json were added` : ''}.`);
  } else {
    await seedDemoSite(database.db, { photosDir: join(dataDir, 'photos'), clock: systemClock, storage: photoStorageFromEnv(env, join(dataDir, 'photos')) });
    console.log(`Seeded the demo site. Demo member: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  }
} finally {
  await database.close();
}
