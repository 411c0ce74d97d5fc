import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { createApp } from './app.ts';
import { registerMetrics, registerSubscribers } from './subscribers.ts';
import { hourSlot, purgeJobRuns, runOncePerSlot } from './jobs/schedule.ts';
import { buildReportSummaries } from './reports/report-summaries.ts';
import { openDatabase } from './db/client.ts';
import { isSeeded, seedDemoSite, DEMO_EMAIL, DEMO_PASSWORD } from './seed/seed.ts';
import { syncRegions } from './geo/regions-sync.ts';
import { loadEnv } from './env.ts';
import { createTranslator } from './i18n/i18n.ts';
import { systemClock } from './infra/clock.ts';
import { createLogger } from './infra/logger.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { createShutdown } from './infra/shutdown.ts';
import { createRedisLiveBus } from './infra/live-bus.ts';
import { attachLiveChannel } from './live/live-socket.ts';
import { pagesHandler, pagesUnavailable } from './pages.ts';
import { CLIENT_BUILD_DIR, ROOT_DIR, SERVER_BUILD_PATH } from './paths.ts';
import { createServices } from './services.ts';
import { databaseStore, memoryStore, redisStore } from './infra/rate-limit.ts';
import { databaseCache, memoryCache, redisCache } from './infra/shared-cache.ts';
import { withFallback } from './infra/redis-fallback.ts';
import { createOutboxMailer, createSmtpMailer } from './infra/mail/transport.ts';
import { createHttpSmsSender, createOutboxSmsSender } from './infra/sms/sms.ts';
import { startupWarnings } from './settings/startup-warnings.ts';
import { devToolsNotice } from './dev-tools/dev-tools.ts';
import { photoStorageFromEnv } from './infra/storage.ts';
import { createMetrics } from './infra/metrics.ts';
import { createReadiness } from './infra/readiness.ts';
import { operationsOnlyApp } from './http/operations.routes.ts';
import { createAdmission } from './http/admission.ts';
import { listenForOutbox } from './infra/outbox-listener.ts';
import { schemaState } from './db/schema-version.ts';
import { startTracing } from './infra/tracing.ts';
import { migratesAtStart, resolveRole, roleRefusal, roleRuns } from './roles.ts';

/**
 * Accounts deleted more than 14 days ago (and other expired rows) are purged once an hour across
 * all instances; each instance looks every 10 minutes whether this hour's run is still to do.
 */
const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * How often a worker looks for due outbox rows unwoken. The embedded database has one process, woken by its own
 * commits; on PostgreSQL commits notify the workers (LISTEN/NOTIFY), so polling is only the fallback.
 */
const OUTBOX_POLL_MS = { pglite: 1_000, postgres: 30_000 } as const;

/** Set in the child process that creates and seeds a new embedded database (see firstStartInChild). */
const FIRST_START_CHILD = 'AMORA_FIRST_START_CHILD';

/**
 * A new embedded database is created, migrated and seeded by a child process running this same program: the
 * WebAssembly memory PGlite grows to while it writes 300 profiles is never given back, and the server would keep
 * it (about 60 MB more than a restart on the same data).
 */
async function firstStartInChild() {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]], {
    env: { ...process.env, [FIRST_START_CHILD]: '1' }, stdio: 'inherit',
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`Creating the embedded database failed (exit code ${code})`);
}

async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  // web: HTTP and live sockets; worker: the outbox and scheduled jobs; all: both (the embedded default).
  const role = resolveRole(process.argv.slice(2), env.AMORA_ROLE);
  const refusal = roleRefusal(role, env.DATABASE_URL ? 'postgres' : 'pglite');
  if (refusal) throw new Error(refusal);
  const runs = roleRuns(role);
  // Before the database is opened, so that its statements are traced from the first.
  const tracing = await startTracing({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME, role });
  if (tracing) logger.info(`Tracing to ${env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
  const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
  const photosDir = join(dataDir, 'photos');
  const storage = photoStorageFromEnv(env, photosDir);
  const pgliteDir = env.DATABASE_URL ? null : join(dataDir, 'db');
  const isFirstStartChild = process.env[FIRST_START_CHILD] === '1';
  // The embedded database has one user: command-line tools see this lock and refuse to open it while the server runs.
  const lock = pgliteDir && !isFirstStartChild ? lockDataDir(dataDir) : null;
  if (pgliteDir && !isFirstStartChild && !existsSync(pgliteDir)) await firstStartInChild();
  const database = await openDatabase({
    url: env.DATABASE_URL, dataDir: pgliteDir, timeouts: { connectMs: env.DATABASE_CONNECT_TIMEOUT_MS, statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS },
  });
  // A release never runs on a schema a newer release migrated, nor (when it does not migrate) on one it is ahead of.
  const schema = await schemaState(database.db);
  const migrate = migratesAtStart({ kind: database.kind, role, setting: env.AMORA_MIGRATE });
  if (schema.state === 'ahead' || (schema.state === 'behind' && !migrate)) {
    await database.close();
    throw new Error(`Cannot start: ${schema.message}`);
  }
  if (migrate) {
    await database.migrate();
    await syncRegions(database.db);
  }

  // The embedded database seeds itself when empty; a real server only when asked (SEED_DEMO=always or npm run seed),
  // and only a process running everything (web instances starting together would seed twice).
  const shouldSeed = role === 'all' && (env.SEED_DEMO === 'always' || (env.SEED_DEMO === 'auto' && database.kind === 'pglite'));
  if (shouldSeed && !(await isSeeded(database.db))) {
    logger.info('Seeding the demo site (first start)…');
    await seedDemoSite(database.db, { photosDir, clock: systemClock, storage });
    logger.info(`Demo member: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  }
  if (isFirstStartChild) {
    await database.close();
    return;
  }

  // Real mail over SMTP when SMTP_URL is set; otherwise the dev outbox in DATA_DIR/outbox (viewer at /dev/outbox).
  const outbox = env.SMTP_URL ? undefined : createOutboxMailer(join(dataDir, 'outbox'));
  const mailer = env.SMTP_URL ? createSmtpMailer(env.SMTP_URL) : outbox!;
  // Payment codes by SMS through the gateway when SMS_URL is set; otherwise the dev outbox in DATA_DIR/sms-outbox (viewer at /dev/sms).
  const smsOutbox = env.SMS_URL ? undefined : createOutboxSmsSender(join(dataDir, 'sms-outbox'));
  const sms = env.SMS_URL ? createHttpSmsSender({ url: env.SMS_URL, apiKey: env.SMS_API_KEY!, from: env.SMS_FROM! }) : smsOutbox!;
  // Rate-limit counters are shared by every instance: in Redis when configured, else in the database.
  let redis: import('ioredis').Redis | undefined;
  if (env.REDIS_URL) {
    const { Redis } = await import('ioredis');
    // A command fails at once while Redis is away (no queue that holds requests) and after half a second when it does
    // not answer: callers then use this instance's own fallbacks (server/infra/redis-fallback.ts).
    redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 500, connectTimeout: 1_000 });
    redis.on('error', (error: Error) => logger.error('Redis:', error.message));
    // Without an offline queue, a command sent before the connection is up fails: wait for it (a little) before
    // serving, so that a healthy start does not begin on the fallbacks.
    if (!(await connected(redis, 2_000))) logger.error('Redis: not connected 2 s after start; this instance uses its own fallbacks until it is');
  }
  const services = createServices({
    db: database.db, clock: systemClock, logger, storage,
    // While Redis is away, limits count per instance and memos stay in this instance, rather than failing requests.
    rateLimitStore: redis ? withFallback('rate limits', redisStore(redis, `${env.REDIS_PREFIX}rl:`), memoryStore(), { logger }) : databaseStore(database.db),
    // Memos and the site cache's version stamp, shared the same way.
    sharedCache: redis
      ? withFallback('shared cache', redisCache(redis, systemClock, `${env.REDIS_PREFIX}cache:`), memoryCache(systemClock), { logger })
      : databaseCache(database.db, systemClock),
    cookieSecret: env.COOKIE_SECRET,
    vapid: { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT },
    mail: { mailer, from: env.MAIL_FROM },
    sms,
    config: env,
    // Members' open tabs may be connected to any instance: live events travel through Redis pub/sub.
    live: redis ? createRedisLiveBus({ publisher: redis, subscriber: redis.duplicate(), prefix: env.REDIS_PREFIX, logger }) : undefined,
  });
  // /healthz, /readyz and /metrics: the orchestrator's probes and Prometheus (docs/deploy.md).
  const readiness = createReadiness({ db: database.db, redis });
  let liveSockets = () => 0;
  const metrics = createMetrics({ db: database.db, pool: () => database.poolStats(), liveSockets: () => liveSockets() });
  registerMetrics(services, metrics);
  const devTools = devToolsNotice({
    env, isPublic: await services.settings.isPublicDeployment(), viewers: [...(outbox ? ['/dev/outbox'] : []), ...(smsOutbox ? ['/dev/sms'] : [])],
  });
  if (outbox) logger.info(`No SMTP_URL: mails go to ${outbox.dir}${env.DEV_TOOLS ? '' : ' (DEV_TOOLS=1 shows them at /dev/outbox, from this machine only)'}`);
  if (devTools) logger[devTools.level](devTools.message);
  // Loud at every start: on a public origin, undelivered mail and simulated payments must not go unnoticed.
  for (const warning of startupWarnings({ env, domains: await services.settings.domains(), outboxDir: outbox?.dir, smsOutboxDir: smsOutbox?.dir })) logger.error(warning);
  let purging: Promise<unknown> = Promise.resolve();
  // Once an hour across all instances: the first instance to claim the hour runs the purge.
  const purge = () => {
    const now = systemClock();
    let failed = false;
    const step = (what: string, work: Promise<unknown>) => work.catch((error: unknown) => {
      failed = true;
      logger.error(`Purging ${what} failed:`, error);
    });
    purging = runOncePerSlot(database.db, 'purge', hourSlot(now), now, async () => {
      await Promise.all([
        step('deleted accounts', services.lifecycle.purgeDeletedAccounts()
          .then((n) => { if (n) logger.info(`Purged ${n} account(s) deleted more than 14 days ago`); })),
        // Ended rate-limit windows (Redis forgets its keys by itself).
        step('rate-limit counters', services.rateLimitStore.purgeExpired(now)),
        step('the shared cache', services.sharedCache.purgeExpired(now)),
        // Direct-debit requests never confirmed keep no IBAN or number beyond a day.
        step('direct-debit requests', services.directDebit.purgeUnconfirmed()),
        step('job runs', purgeJobRuns(database.db, now)),
      ]);
      metrics.jobRun('purge', !failed);
    }).catch((error: unknown) => logger.error('Scheduling the purge failed:', error));
  };
  let summarising: Promise<unknown> = Promise.resolve();
  // Once an hour across all instances: the reports' summaries of the closed days (decision 081).
  const summarise = () => {
    const now = systemClock();
    summarising = runOncePerSlot(database.db, 'report-summaries', hourSlot(now), now, async () => {
      let ok = true;
      const built = await buildReportSummaries(database.db, now).catch((error: unknown) => {
        ok = false;
        logger.error('Building the report summaries failed:', error);
        return null;
      });
      if (built) logger.info(`Report summaries built for ${built.from} to ${built.to}`);
      metrics.jobRun('report-summaries', ok);
    }).catch((error: unknown) => logger.error('Scheduling the report summaries failed:', error));
  };
  const scheduled = () => {
    purge();
    summarise();
  };
  // Scheduled jobs and outbox delivery run on workers (and role all), never on web instances.
  const purgeTimer = runs.background ? setInterval(scheduled, PURGE_INTERVAL_MS) : undefined;
  purgeTimer?.unref();
  if (runs.background) scheduled();
  // Generate or load the VAPID keys now, so that the first page already has the public key.
  await services.push.vapidKeys();
  const translator = await createTranslator();
  // Mail, push and live updates react to what happens; the outbox delivers what was recorded, here
  // and on every other instance (each row once).
  registerSubscribers(services, translator);
  const stopOutbox = runs.background ? services.events.start(env.OUTBOX_POLL_MS ?? OUTBOX_POLL_MS[database.kind]) : () => {};
  // Another instance's commit wakes this worker at once (PostgreSQL's LISTEN/NOTIFY).
  const outboxListener = runs.background && env.DATABASE_URL
    ? listenForOutbox({ url: env.DATABASE_URL, onWake: () => services.events.wake(), logger })
    : undefined;
  const dev = runs.http && env.NODE_ENV === 'development';

  let vite: import('vite').ViteDevServer | undefined;
  let getBuild: (() => Promise<ServerBuild>) | undefined;
  if (dev) {
    const { createServer: createViteServer } = await import('vite');
    vite = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' });
    const devServer = vite;
    getBuild = async () => {
      const runner = (devServer.environments.ssr as unknown as { runner: { import(id: string): Promise<ServerBuild> } }).runner;
      return runner.import('virtual:react-router/server-build');
    };
  } else if (!runs.http) {
    // A worker serves no pages.
  } else if (existsSync(SERVER_BUILD_PATH)) {
    const build = (await import(SERVER_BUILD_PATH)) as ServerBuild;
    getBuild = async () => build;
  } else {
    // The API needs no build (e.g. `node --import tsx server/main.ts` in tests); pages say why they are missing.
    logger.error(`No page build at ${SERVER_BUILD_PATH}: serving the API only, pages answer 503 (run npm run build)`);
  }

  // The answer times and the event loop's delay say the instance is behind only when the database works elsewhere:
  // PGlite's queries run on this thread, one at a time, so there a fixed number of requests at once is the only limit.
  const fleet = database.kind === 'postgres';
  const admission = runs.http
    ? createAdmission({
      maxInFlight: env.ADMISSION_MAX_IN_FLIGHT, targetMs: fleet ? env.ADMISSION_TARGET_MS : 0, maxDelayMs: fleet ? env.ADMISSION_MAX_DELAY_MS : 0,
    })
    : undefined;
  // A worker answers only /healthz, /readyz and /metrics (with METRICS_TOKEN, as on web) on PORT, for its probes.
  const app = runs.http
    ? createApp({
      services, translator, env, logger, outbox, smsOutbox, operations: { readiness, metrics }, admission, tracer: tracing?.tracer,
      clientDir: dev || !existsSync(CLIENT_BUILD_DIR) ? undefined : CLIENT_BUILD_DIR,
      pages: getBuild ? pagesHandler(getBuild, env.NODE_ENV) : pagesUnavailable,
    })
    : operationsOnlyApp({ readiness, metrics, open: false, metricsToken: env.METRICS_TOKEN });
  const listener = getRequestListener(app.fetch);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (vite) vite.middlewares(req, res, () => listener(req, res));
    else listener(req, res);
  });
  // Kept-alive connections stay open longer than proxies and load balancers keep theirs idle (60 s is common):
  // a connection the server closes just as a client sends on it again ends that request with a reset.
  // Shutdown closes idle connections itself (server/infra/shutdown.ts).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const failToListen = (name: string, port: number | undefined) => (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use (set ${name} to use another)` : error.message;
    console.error(`Cannot start the server: ${reason}`);
    process.exit(1);
  };
  server.on('error', failToListen('PORT', env.PORT));
  const live = runs.http ? attachLiveChannel({ server, services, logger, trustProxy: env.TRUST_PROXY }) : undefined;
  liveSockets = () => live?.size ?? 0;
  server.listen(env.PORT, env.HOST, () => logger.info(`Amora listens on http://localhost:${env.PORT} (${database.kind}, role ${role})`));
  // Prometheus scrapes /metrics here without a token: a port the load balancer does not expose.
  const metricsServer = env.METRICS_PORT ? createServer(getRequestListener(operationsOnlyApp({ readiness, metrics, open: true }).fetch)) : undefined;
  metricsServer?.on('error', failToListen('METRICS_PORT', env.METRICS_PORT));
  metricsServer?.listen(env.METRICS_PORT, env.HOST, () => logger.info(`Metrics on http://localhost:${env.METRICS_PORT}/metrics`));

  // Running requests finish, then the notifications they committed go out, then mail, then the database.
  createShutdown({
    server, logger, timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    // From the signal on, /readyz fails, so a load balancer that still has this instance stops sending to it.
    onStart: () => readiness.markShuttingDown(),
    upgraded: [{ name: 'live sockets', run: () => live?.close() }],
    steps: [
      { name: 'background jobs', run: async () => { clearInterval(purgeTimer); stopOutbox(); await outboxListener?.close(); return Promise.all([purging, summarising]); } },
      {
        name: 'notifications',
        run: async () => {
          const done = await services.events.drainForShutdown(env.SHUTDOWN_TIMEOUT_MS, { deliver: runs.background });
          if (!done) logger.error(`shutdown: notifications still running after ${env.SHUTDOWN_TIMEOUT_MS} ms; undelivered ones stay in the outbox`);
        },
      },
      { name: 'mail', run: () => mailer.close?.() },
      { name: 'dev server', run: () => vite?.close() },
      { name: 'database', run: async () => { await database.close(); lock?.release(); } },
      { name: 'live bus', run: () => services.live.close() },
      { name: 'redis', run: () => redis?.disconnect() },
      { name: 'traces', run: () => tracing?.shutdown() },
      { name: 'metrics port', run: () => new Promise<void>((resolve) => { if (metricsServer) metricsServer.close(() => resolve()); else resolve(); }) },
    ],
  }).listen();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/** Whether `redis` is ready within `ms`. */
function connected(redis: import('ioredis').Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
