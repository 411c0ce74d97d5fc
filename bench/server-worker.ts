// The servers under test run in a worker thread, so that the load generator does not share their event loop.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '../server/app.ts';
import { openDatabase } from '../server/db/client.ts';
import { loadEnv } from '../server/env.ts';
import { createTranslator } from '../server/i18n/i18n.ts';
import { systemClock } from '../server/infra/clock.ts';
import { createLogger } from '../server/infra/logger.ts';
import { createServices } from '../server/services.ts';
import { localStorage } from '../server/infra/storage.ts';
import { primaryKeyBaseline } from './lib.ts';

const { url, userId } = workerData as { url: string; userId: number };

const listen = (server: ReturnType<typeof createServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

const database = await openDatabase({ url });
const photosDir = mkdtempSync(join(tmpdir(), 'amora-bench-'));
const services = createServices({ db: database.db, clock: systemClock, storage: localStorage(photosDir), logger: createLogger('error') });
const app = createApp({
  services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'production' }), logger: createLogger('error'),
});
const appPort = await listen(createServer(getRequestListener(app.fetch)));

// The baseline: bare node:http with a pg Pool answering one primary-key query (the searching member) as JSON, under
// the same load: what any server must do for a member's JSON answer.
const baseline = primaryKeyBaseline(url, userId);
const baselinePort = await listen(baseline.server);

parentPort!.postMessage({ appPort, baselinePort });
parentPort!.on('message', async (m) => {
  if (m === 'close') {
    await baseline.close();
    await database.close();
    process.exit(0);
  }
});
