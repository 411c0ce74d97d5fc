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

const { url } = workerData as { url: string };

const listen = (server: ReturnType<typeof createServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

const database = await openDatabase({ url });
const photosDir = mkdtempSync(join(tmpdir(), 'amora-bench-'));
const services = createServices({ db: database.db, clock: systemClock, storage: localStorage(photosDir), logger: createLogger('error') });
const app = createApp({
  services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'production' }), logger: createLogger('error'),
});
const appPort = await listen(createServer(getRequestListener(app.fetch)));

// The baseline: bare node:http answering a small JSON document, under the same load.
const body = JSON.stringify({ ok: true, profiles: [] });
const baselinePort = await listen(createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}));

parentPort!.postMessage({ appPort, baselinePort });
parentPort!.on('message', async (m) => {
  if (m === 'close') {
    await database.close();
    process.exit(0);
  }
});
