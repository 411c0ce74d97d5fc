import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { createApp } from './app.ts';
import { attachPushNotifications } from './push/push-notifications.ts';
import { openDatabase } from './db/client.ts';
import { isSeeded, seedDemoSite, DEMO_EMAIL, DEMO_PASSWORD } from './db/seed.ts';
import { loadEnv } from './env.ts';
import { createTranslator } from './i18n/i18n.ts';
import { systemClock } from './infra/clock.ts';
import { createLogger } from './infra/logger.ts';
import { pagesHandler } from './pages.ts';
import { CLIENT_BUILD_DIR, ROOT_DIR, SERVER_BUILD_PATH } from './paths.ts';
import { createServices } from './services.ts';
import { createOutboxMailer, createSmtpMailer } from './infra/mail/transport.ts';
import type { Env } from './env.ts';

/** Accounts deleted more than 14 days ago are purged at start and every hour. */
const PURGE_INTERVAL_MS = 60 * 60_000;

/** Links in mails sent outside a request (notifications): PUBLIC_URL, else the site's own domain. */
export function publicUrl(env: Env, domain: string): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/$/, '');
  return domain === 'localhost' ? `http://localhost:${env.PORT}` : `https://${domain}`;
}
import { photoStorageFromEnv } from './infra/storage.ts';

async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
  const photosDir = join(dataDir, 'photos');
  const storage = photoStorageFromEnv(env, photosDir);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
  await database.migrate();

  // The embedded database seeds itself when empty; a real server only when asked (SEED_DEMO=always or npm run seed).
  const shouldSeed = env.SEED_DEMO === 'always' || (env.SEED_DEMO === 'auto' && database.kind === 'pglite');
  if (shouldSeed && !(await isSeeded(database.db))) {
    logger.info('Seeding the demo site (first start)…');
    await seedDemoSite(database.db, { photosDir, clock: systemClock, storage });
    logger.info(`Demo member: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  }

  // Real mail over SMTP when SMTP_URL is set; otherwise the dev outbox in DATA_DIR/outbox (viewer at /dev/outbox).
  const outbox = env.SMTP_URL ? undefined : createOutboxMailer(join(dataDir, 'outbox'));
  const mailer = env.SMTP_URL ? createSmtpMailer(env.SMTP_URL) : outbox!;
  const services = createServices({
    db: database.db, clock: systemClock, logger, storage,
    vapid: { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT },
    mail: { mailer, from: env.MAIL_FROM, publicUrl: (domain) => publicUrl(env, domain) },
  });
  if (outbox) logger.info(`No SMTP_URL: mails go to ${outbox.dir} (see /dev/outbox)`);
  const purge = () => services.lifecycle.purgeDeletedAccounts()
    .then((n) => { if (n) logger.info(`Purged ${n} account(s) deleted more than 14 days ago`); })
    .catch((error: unknown) => logger.error('Purging deleted accounts failed:', error));
  void purge();
  const purgeTimer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
  purgeTimer.unref();
  // Generate or load the VAPID keys now, so that the first page already has the public key.
  await services.push.vapidKeys();
  const translator = await createTranslator();
  // New messages and likes reach subscribed members by push.
  attachPushNotifications(services, translator);
  const dev = env.NODE_ENV === 'development';

  let vite: import('vite').ViteDevServer | undefined;
  let getBuild: () => Promise<ServerBuild>;
  if (dev) {
    const { createServer: createViteServer } = await import('vite');
    vite = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' });
    const devServer = vite;
    getBuild = async () => {
      const runner = (devServer.environments.ssr as unknown as { runner: { import(id: string): Promise<ServerBuild> } }).runner;
      return runner.import('virtual:react-router/server-build');
    };
  } else {
    const build = (await import(SERVER_BUILD_PATH)) as ServerBuild;
    getBuild = async () => build;
  }

  const app = createApp({
    services, translator, env, logger, outbox,
    clientDir: dev ? undefined : CLIENT_BUILD_DIR,
    pages: pagesHandler(getBuild, env.NODE_ENV),
  });
  const listener = getRequestListener(app.fetch);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (vite) vite.middlewares(req, res, () => listener(req, res));
    else listener(req, res);
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? `port ${env.PORT} is already in use (set PORT to use another)` : error.message;
    console.error(`Cannot start the server: ${reason}`);
    process.exit(1);
  });
  server.listen(env.PORT, env.HOST, () => logger.info(`Amora listens on http://localhost:${env.PORT} (${database.kind})`));

  const stop = async () => {
    clearInterval(purgeTimer);
    server.close();
    await vite?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
