// `npm run payments:refund -- <order id> <reason…>`: refunds a completed order within its site's refund_days (operators).
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { isAppError } from '../infra/errors.ts';
import { photoStorageFromEnv } from '../infra/storage.ts';
import { ROOT_DIR } from '../paths.ts';
import { createServices } from '../services.ts';

const USAGE = 'Usage: npm run payments:refund -- <order id> <reason>';

const [orderId, ...words] = process.argv.slice(2);
const reason = words.join(' ').trim();
if (!orderId || !reason) {
  console.error(USAGE);
  process.exit(2);
}
const env = loadEnv();
const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
try {
  await database.migrate();
  const services = createServices({ db: database.db, clock: systemClock, storage: photoStorageFromEnv(env, join(dataDir, 'photos')), config: env });
  const result = await services.records.refundOrder(orderId, reason);
  console.log(`Order ${result.order.id} refunded (${result.order.amount / 100} ${result.order.currency}); ${result.credits_taken} credits taken back.`);
} catch (error) {
  console.error(isAppError(error) ? `Not refunded: ${error.code}${Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}` : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
