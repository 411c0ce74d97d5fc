// The servers of `npm run bench -- api`, in a worker thread so that the load generator does not share their event loop:
// the real app, and the baseline (bare node:http with a pg Pool, one query per request).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { getRequestListener } from '@hono/node-server';
import { countStatements, primaryKeyBaseline } from './lib.ts';
import { createApp } from '../server/app.ts';
import { openDatabase } from '../server/db/client.ts';
import { loadEnv } from '../server/env.ts';
import { createTranslator } from '../server/i18n/i18n.ts';
import { systemClock } from '../server/infra/clock.ts';
import { createLogger } from '../server/infra/logger.ts';
import { createServices } from '../server/services.ts';
import { localStorage } from '../server/infra/storage.ts';
import { databaseStore } from '../server/infra/rate-limit.ts';
import { databaseCache } from '../server/infra/shared-cache.ts';

const { url, userId } = workerData as { url: string; userId: number };

// Every statement sent to PostgreSQL, by the app or the baseline (pool.query goes through Client#query too).
const statements = countStatements();

const listen = (server: ReturnType<typeof createServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

const database = await openDatabase({ url });
const logger = createLogger('error');
// As in production without Redis: rate limits and the shared cache in the database.
const services = createServices({
  db: database.db, clock: systemClock, storage: localStorage(mkdtempSync(join(tmpdir(), 'amora-bench-'))), logger,
  rateLimitStore: databaseStore(database.db), sharedCache: databaseCache(database.db, systemClock),
});
const app = createApp({ services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'production' }), logger });
const appPort = await listen(createServer(getRequestListener(app.fetch)));

// The baseline: what any server must do for an authenticated JSON answer, at least one query (the member by id).
const baseline = primaryKeyBaseline(url, userId);
const baselinePort = await listen(baseline.server);

parentPort!.postMessage({ appPort, baselinePort });
parentPort!.on('message', async (m) => {
  if (m === 'statements') parentPort!.postMessage({ statements: statements.count() });
  if (m === 'close') {
    await baseline.close();
    await database.close();
    process.exit(0);
  }
});
