// `npm run members:ban -- <member id> <fake|scammer|abuse|underage|other> [note…]`: bans a member (operators).
// For a fake profile or a scammer, the credits others spent on messages, gifts and photos to it come back.
import { join, resolve } from 'node:path';
import { toId } from '#common/input.ts';
import { openDatabase } from '../db/client.ts';
import { BAN_REASONS, type BanReason } from '../db/schema.ts';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { isAppError } from '../infra/errors.ts';
import { photoStorageFromEnv } from '../infra/storage.ts';
import { ROOT_DIR } from '../paths.ts';
import { createServices } from '../services.ts';

const USAGE = `Usage: npm run members:ban -- <member id> <${BAN_REASONS.join('|')}> [note]`;

const [idArg, reasonArg, ...words] = process.argv.slice(2);
const userId = toId(idArg);
if (userId === null || !(BAN_REASONS as readonly string[]).includes(reasonArg ?? '')) {
  console.error(USAGE);
  process.exit(2);
}
const env = loadEnv();
const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
try {
  await database.migrate();
  const services = createServices({ db: database.db, clock: systemClock, storage: photoStorageFromEnv(env, join(dataDir, 'photos')), config: env });
  const { refunds } = await services.bans.ban(userId, reasonArg as BanReason, words.join(' ').trim());
  const credits = refunds.reduce((sum, r) => sum + r.credits, 0);
  console.log(`Member ${userId} banned (${reasonArg}); ${credits} credits refunded to ${refunds.length} members.`);
} catch (error) {
  console.error(isAppError(error) ? `Not banned: ${error.code}` : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
