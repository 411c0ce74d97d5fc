// `npm run photos:moderate -- --list | --approve <id> | --reject <id>`: photo moderation for operators.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/client.ts';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { photoStorageFromEnv } from '../infra/storage.ts';
import { createContactRules } from '../accounts/contact-rules.ts';
import { ROOT_DIR } from '../paths.ts';
import { createPhotosService } from './photos.service.ts';
import { OPERATOR_CLI } from '../actor.ts';

const USAGE = 'Usage: npm run photos:moderate -- --list | --approve <id> | --reject <id>';

const { values } = parseArgs({ options: { list: { type: 'boolean' }, approve: { type: 'string' }, reject: { type: 'string' } } });
const env = loadEnv();
const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
try {
  await database.migrate();
  const photos = createPhotosService({
    db: database.db, clock: systemClock, storage: photoStorageFromEnv(env, join(dataDir, 'photos')), contactRules: createContactRules({ db: database.db }),
  });
  const id = values.approve ?? values.reject;
  if (values.list) {
    const pending = await photos.pending(OPERATOR_CLI);
    if (!pending.length) console.log('No photos are waiting for moderation.');
    for (const p of pending) {
      console.log(`${p.id}\tmember ${p.user_id}\t${p.created_at}\t${p.is_private ? 'private' : 'public'}\t${join(dataDir, 'photos', p.filename)}`);
    }
  } else if (id && /^\d+$/.test(id)) {
    const result = await photos.moderate(OPERATOR_CLI, Number(id), values.approve ? 'approve' : 'reject').catch(() => null);
    if (!result) {
      console.error(`Photo ${id} does not exist.`);
      process.exitCode = 1;
    } else {
      console.log(`Photo ${result.id} is now ${result.status}.`);
    }
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
