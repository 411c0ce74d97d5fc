// `npm run photos:moderate -- --staff <e-mail> --list | --approve <id> | --reject <id>`: photo moderation as the named
// moderator (audited).
// The member's "photo checked" mail goes out through the outbox, delivered by the running server.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '../env.ts';
import { ROOT_DIR } from '../paths.ts';
import { failure, withStaff } from './cli-services.ts';

const USAGE = 'Usage: npm run photos:moderate -- --staff <e-mail> --list | --approve <id> | --reject <id>';

const { values } = parseArgs({ options: { staff: { type: 'string' }, list: { type: 'boolean' }, approve: { type: 'string' }, reject: { type: 'string' } } });
const photosDir = join(resolve(ROOT_DIR, loadEnv().DATA_DIR), 'photos');
const id = values.approve ?? values.reject;
const email = values.staff;
if (!email || (!values.list && !(id && /^\d+$/.test(id)))) {
  console.error(USAGE);
  process.exit(2);
}
await withStaff(email, async ({ photos }, staff) => {
  if (values.list) {
    const pending = await photos.pending(staff);
    if (!pending.length) console.log('No photos are waiting for moderation.');
    for (const p of pending) {
      console.log(`${p.id}\tmember ${p.user_id}\t${p.created_at}\t${p.is_private ? 'private' : 'public'}\t${join(photosDir, p.filename)}`);
    }
    return;
  }
  const result = await photos.moderate(staff, Number(id), values.approve ? 'approve' : 'reject').catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'not_found') throw error;
    return null;
  });
  if (!result) {
    console.error(`Photo ${id} does not exist.`);
    process.exitCode = 1;
  } else {
    console.log(`Photo ${result.id} is now ${result.status}.`);
  }
}).catch((error: unknown) => {
  console.error(failure('Not done', error));
  process.exitCode = 1;
});
