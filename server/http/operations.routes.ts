import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Readiness } from '../infra/readiness.ts';
import type { Metrics } from '../infra/metrics.ts';


/** Compares a presented bearer token with the configured one in constant time (hashes have equal lengths). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (\S{1,512})$/.exec(header ?? '')?.[1];
  if (!presented) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

const notFound = (c: Context) => c.json({ error: { code: 'not_found', message: 'Not found' } }, 404, { 'Cache-Control': 'no-store' });

/**
 * /healthz, /readyz and /metrics, for orchestrators and Prometheus. They answer before the site is resolved (no
 * database needed for /healthz) and in English: no member reads them. /metrics answers only with `open` (the separate
 * METRICS_PORT, not reachable from outside) or with METRICS_TOKEN as a bearer token; otherwise it does not exist.
 */
export function operationsRoutes(deps: { readiness: Readiness; metrics?: Metrics; metricsToken?: string; open?: boolean }) {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.get('/readyz', async (c) => {
    const { ready, checks } = await deps.readiness.check();
    if (ready) return c.json({ status: 'ready', checks }, 200, { 'Cache-Control': 'no-store' });
    const failing = Object.keys(checks).filter((k) => checks[k].startsWith('failing'));
    return c.json({ status: 'not_ready', checks, error: { code: 'not_ready', message: `Not ready: ${failing.join(', ')}` } }, 503, { 'Cache-Control': 'no-store' });
  });
  app.get('/metrics', async (c) => {
    const allowed = deps.metrics && (deps.open || (deps.metricsToken !== undefined && tokenMatches(c.req.header('authorization'), deps.metricsToken)));
    if (!allowed || !deps.metrics) return notFound(c);
    return c.body(await deps.metrics.render(), 200, { 'Content-Type': deps.metrics.contentType, 'Cache-Control': 'no-store' });
  });
  return app;
}

/** The operations endpoints alone, for the METRICS_PORT listener (and a worker's only HTTP). */
export function operationsOnlyApp(deps: { readiness: Readiness; metrics?: Metrics; open: boolean; metricsToken?: string }) {
  const app = operationsRoutes(deps);
  app.notFound(notFound);
  return app;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The label a request is counted under: the template of the route that answered (/api/profile.php, /photos/:file),
 * never the raw path, so the number of series stays bounded whatever paths clients send. The catch-alls (pages,
 * built assets, unknown paths) are named by what they serve.
 */
export function routeLabel(method: string, routePath: string, path: string, status: number): { method: string; route: string } {
  const m = METHODS.has(method) ? method : 'OTHER';
  if (!routePath.includes('*')) return { method: m, route: routePath };
  if (path.startsWith('/assets/')) return { method: m, route: '/assets/*' };
  if (path.startsWith('/api/')) return { method: m, route: status === 404 ? '/api/* (unknown)' : '/api/*' };
  return { method: m, route: status === 404 ? '(unknown)' : '(pages)' };
}
