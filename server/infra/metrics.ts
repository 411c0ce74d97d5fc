import { count, eq, min, not } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client.ts';
import { outbox, payments } from '../db/schema.ts';

/** What the database pool says about its connections; null where there is no pool (PGlite has one connection). */
export interface PoolStats { total: number; idle: number; waiting: number }

export interface MetricsSources {
  db: Db;
  /** The database pool's connections (PostgreSQL), or null (PGlite: one connection, nothing waits in a pool). */
  pool: () => PoolStats | null;
  /** Open live sockets on this instance (0 on a worker). */
  liveSockets?: () => number;
}

/**
 * Latency buckets in seconds: most API answers take a few milliseconds, a page or a photo upload up to a second, and the
 * admission limit of the issue (p99 ≤ 250 ms) falls between two buckets' bounds.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus metrics of one process, in a registry of its own (tests build many apps in one process). Counters and
 * the request histogram count what this process did; the database gauges (outbox, payments) are read at each scrape,
 * so every instance reports the same shared numbers and dashboards take max(), not sum(), of them.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  // Event-loop delay (nodejs_eventloop_lag_*), heap (nodejs_heap_size_*), garbage collection, handles, CPU.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const requests = new Counter({
    name: 'amora_http_requests_total', help: 'HTTP requests answered, by route template and status',
    labelNames: ['method', 'route', 'status'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'amora_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route template and status',
    labelNames: ['method', 'route', 'status'] as const, buckets: LATENCY_BUCKETS, registers: [registry],
  });
  new Gauge({
    name: 'amora_db_pool_connections', help: 'Database pool connections by state (PostgreSQL; PGlite reports its one connection as total)',
    labelNames: ['state'] as const, registers: [registry],
    collect() {
      const stats = sources.pool();
      this.reset();
      if (!stats) {
        this.set({ state: 'total' }, 1);
        return;
      }
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'in_use' }, stats.total - stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'amora_live_sockets', help: 'Open live sockets (WebSocket) on this instance', registers: [registry],
    collect() { this.set(sources.liveSockets?.() ?? 0); },
  });
  const outboxDepth = new Gauge({ name: 'amora_outbox_depth', help: 'Outbox rows waiting to be delivered (not given up)', registers: [registry] });
  const outboxDead = new Gauge({ name: 'amora_outbox_dead', help: 'Outbox rows given up after their last attempt, kept for the operator', registers: [registry] });
  const outboxOldest = new Gauge({ name: 'amora_outbox_oldest_age_seconds', help: 'Age of the oldest outbox row waiting to be delivered (0 when none)', registers: [registry] });
  const paymentsGauge = new Gauge({
    name: 'amora_payments', help: 'Payments by status and provider (whole database)', labelNames: ['status', 'provider'] as const, registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'amora_job_runs_total', help: 'Scheduled job runs on this instance, by job and outcome (ok, failed)',
    labelNames: ['job', 'outcome'] as const, registers: [registry],
  });
  const deliveries = new Counter({
    name: 'amora_outbox_deliveries_total', help: 'Outbox rows run on this instance, by subscriber and outcome (ok, failed)',
    labelNames: ['subscriber', 'outcome'] as const, registers: [registry],
  });
  const refusals = new Counter({
    name: 'amora_admission_refused_total', help: 'Requests refused with 503 by admission control, by reason (in_flight, event_loop_delay)',
    labelNames: ['reason'] as const, registers: [registry],
  });
  const messages = new Counter({
    name: 'amora_messages_sent_total', help: 'Chat messages sent through this instance, by kind (text, gift, photo)',
    labelNames: ['kind'] as const, registers: [registry],
  });

  /** The database's shared numbers, read once per scrape. */
  async function readDatabase() {
    const [[waiting], [dead], byStatus] = await Promise.all([
      sources.db.select({ n: count(), oldest: min(outbox.createdAt) }).from(outbox).where(not(outbox.dead)),
      sources.db.select({ n: count() }).from(outbox).where(eq(outbox.dead, true)),
      sources.db.select({ status: payments.status, provider: payments.provider, n: count() }).from(payments).groupBy(payments.status, payments.provider),
    ]);
    outboxDepth.set(Number(waiting?.n ?? 0));
    outboxDead.set(Number(dead?.n ?? 0));
    const oldest = waiting?.oldest ? new Date(waiting.oldest).getTime() : null;
    outboxOldest.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    paymentsGauge.reset();
    for (const row of byStatus) paymentsGauge.set({ status: row.status, provider: row.provider }, Number(row.n));
  }

  return {
    registry,
    contentType: registry.contentType,
    /** One answered request; `route` is the route's template (/api/profile.php, /photos/:file), never the raw path. */
    request(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    jobRun(job: string, ok: boolean) {
      jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' });
    },
    delivery(subscriber: string, ok: boolean) {
      deliveries.inc({ subscriber, outcome: ok ? 'ok' : 'failed' });
    },
    refused(reason: string) {
      refusals.inc({ reason });
    },
    messageSent(kind: string) {
      messages.inc({ kind });
    },
    /** The text exposition; the database gauges are read first (a failing database does not fail the rest). */
    async render(): Promise<string> {
      let failed = false;
      // The gauges keep their last values (a depth of 0 would hide a backlog); the line below says they are stale.
      await readDatabase().catch(() => { failed = true; });
      const text = await registry.metrics();
      return failed ? `${text}# amora: the database gauges could not be read\n` : text;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
