import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { creditPackages, orders, outbox, payments, users } from '../db/schema.ts';
import { createMetrics } from '../infra/metrics.ts';
import { createReadiness } from '../infra/readiness.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { operationsOnlyApp, routeLabel } from './operations.routes.ts';

const TOKEN = 'metrics-token-0123456789';

/** The value of one series in the text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe.each(DATABASE_KINDS)('operations endpoints on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2, operations: true, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('/healthz answers without the database; /readyz names what fails', async () => {
    const client = t.client();
    const health = await client.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', shutdown: 'ok' } });

    // A database that fails is named in a 503 answer; a Redis that does not answer is named as degraded, not failing
    // (the instance falls back to its own limits and to polling).
    const failing = createReadiness({
      db: { execute: () => Promise.reject(new Error('connection refused')) } as never,
      redis: { ping: () => new Promise<string>(() => {}) },
    });
    failing.markShuttingDown();
    const ops = operationsOnlyApp({ readiness: failing, open: false });
    const res = await ops.request('/readyz');
    expect(res.status).toBe(503);
    const body = await res.json() as { checks: Record<string, string>; error: { code: string; message: string } };
    expect(body.checks).toEqual({ database: 'failing: connection refused', redis: 'degraded: no answer within 2000 ms', shutdown: 'failing: shutting down' });
    expect(body.error).toEqual({ code: 'not_ready', message: 'Not ready: database, shutdown' });

    // Redis alone away: still ready.
    const degraded = createReadiness({ db: t.database.db, redis: { ping: () => Promise.reject(new Error('connection refused')) } });
    const alone = await operationsOnlyApp({ readiness: degraded, open: false }).request('/readyz');
    expect(alone.status).toBe(200);
    expect(await alone.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'degraded: connection refused', shutdown: 'ok' } });
    expect((await ops.request('/healthz')).status).toBe(200);
    // Nothing else is served there.
    expect((await ops.request('/api/user.php')).status).toBe(404);
  });

  it('/metrics answers only with the token on the main port', async () => {
    const client = t.client();
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${'x'.repeat(5000)}`, 'Bearer a\tb', 'Bearer %00']) {
      const res = await client.get('/metrics', authorization ? { authorization } : {});
      expect(res.status, authorization).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'not_found' } });
    }
    const res = await client.get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
    // Without a token configured, there is no /metrics on the main port at all.
    const plain = await createTestApp(kind, { profiles: 0, operations: true });
    try {
      expect((await plain.client().get('/metrics', { authorization: 'Bearer ' })).status).toBe(404);
      expect((await plain.client().get('/metrics', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('counts requests by route template and status, messages by kind, outbox rows, payments and the pool', async () => {
    const a = await signUp(t, { name: 'Metrics A' });
    const b = await signUp(t, { name: 'Metrics B' });
    await t.database.db.transaction((tx) => addCredits(tx, a.user.id, 100, 'demo_grant', `metrics-grant-${a.user.id}`));
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, a.user.id));
    const sent = await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'Hello there' }, { 'idempotency-key': `metrics-${kind}-1-key` });
    expect(sent.status).toBe(201);
    await a.client.get(`/api/profile.php?id=${b.user.id}`);
    await a.client.get(`/api/profile.php?id=${a.user.id}`);
    await a.client.get('/api/nothing-here.php');
    const [pack] = await t.database.db.select({ id: creditPackages.id }).from(creditPackages).limit(1);
    const orderId = `metrics-o1-${kind}`;
    await t.database.db.insert(orders).values({
      id: orderId, userId: a.user.id, packageId: pack.id, credits: 10, amountCents: 500, currency: 'EUR', paymentmethod: 'ideal', idempotencyKey: orderId,
    });
    await t.database.db.insert(payments).values([
      { orderId, provider: 'test', providerRef: `metrics-p1-${kind}`, status: 'paid' },
      { orderId, provider: 'test', providerRef: `metrics-p2-${kind}`, status: 'paid' },
      { orderId, provider: 'mollie', providerRef: `metrics-p3-${kind}`, status: 'failed' },
    ]);
    // One row waits in the outbox, created a minute ago.
    await t.database.db.insert(outbox).values({ event: 'account.created', subscriber: 'metrics.nobody', payload: {}, availableAt: new Date(), createdAt: new Date(Date.now() - 60_000) });

    const text = await t.operations!.metrics.render();
    expect(sample(text, 'amora_http_requests_total', { method: 'POST', route: '/api/messages.php', status: '201' })).toBe(1);
    // Two profiles, one series: the template, not the raw path (the query string never was part of it).
    const profileViews = sample(text, 'amora_http_requests_total', { method: 'GET', route: '/api/profile.php', status: '200' });
    expect(profileViews).toBe(2);
    expect(sample(text, 'amora_http_requests_total', { method: 'GET', route: '/api/* (unknown)', status: '404' })).toBe(1);
    expect(sample(text, 'amora_http_request_duration_seconds_count', { method: 'GET', route: '/api/profile.php', status: '200' })).toBe(2);
    expect(text).not.toContain('/healthz');
    expect(sample(text, 'amora_messages_sent_total', { kind: 'text' })).toBe(1);
    expect(sample(text, 'amora_outbox_depth')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'amora_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(59);
    expect(sample(text, 'amora_payments', { status: 'paid', provider: 'test' })).toBe(2);
    expect(sample(text, 'amora_payments', { status: 'failed', provider: 'mollie' })).toBe(1);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'amora_live_sockets')).toBe(0);
    if (kind === 'postgres') {
      expect(sample(text, 'amora_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'amora_db_pool_connections', { state: 'waiting' })).toBe(0);
    } else {
      expect(sample(text, 'amora_db_pool_connections', { state: 'total' })).toBe(1);
    }
    // The outbox delivered the message's notifications here, and counted them.
    await t.services.events.drain();
    const after = await t.operations!.metrics.render();
    const delivered = after.split('\n').filter((l) => l.startsWith('amora_outbox_deliveries_total{') && l.includes('outcome="ok"'));
    expect(delivered.reduce((n, l) => n + Number(l.split(' ').pop()), 0)).toBeGreaterThanOrEqual(1);
    await t.database.db.delete(outbox).where(eq(outbox.subscriber, 'metrics.nobody'));
  });

  it('counts scheduled job runs and failures', async () => {
    const metrics = createMetrics({ db: t.database.db, pool: () => null });
    metrics.jobRun('purge', true);
    metrics.jobRun('purge', false);
    metrics.jobRun('purge', true);
    const text = await metrics.render();
    expect(sample(text, 'amora_job_runs_total', { job: 'purge', outcome: 'ok' })).toBe(2);
    expect(sample(text, 'amora_job_runs_total', { job: 'purge', outcome: 'failed' })).toBe(1);
  });

  it('a separate metrics listener serves /metrics without a token', async () => {
    const ops = operationsOnlyApp({ readiness: t.operations!.readiness, metrics: t.operations!.metrics, open: true });
    const res = await ops.request('/metrics');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('amora_http_requests_total');
  });
});

describe('route labels', () => {
  it('keep templates and name the catch-alls, so unknown paths add no series', () => {
    expect(routeLabel('GET', '/photos/:file', '/photos/a.webp', 200)).toEqual({ method: 'GET', route: '/photos/:file' });
    expect(routeLabel('GET', '*', '/assets/app-123.js', 200)).toEqual({ method: 'GET', route: '/assets/*' });
    expect(routeLabel('GET', '*', '/members', 200)).toEqual({ method: 'GET', route: '(pages)' });
    expect(routeLabel('GET', '*', '/random/1234', 404)).toEqual({ method: 'GET', route: '(unknown)' });
    expect(routeLabel('BREW', '/api/*', '/api/x', 404)).toEqual({ method: 'OTHER', route: '/api/* (unknown)' });
  });
});
