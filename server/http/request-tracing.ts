import { context, propagation, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { routeLabel } from './operations.routes.ts';

/** Hono middleware: one server span per request, named by method and route template once the route is known. */
export function traceRequests(tracer: Tracer): MiddlewareHandler {
  return async (c, next) => {
    const parent = propagation.extract(context.active(), Object.fromEntries(c.req.raw.headers));
    const attributes = { 'http.request.method': c.req.method, 'url.path': c.req.path };
    await tracer.startActiveSpan(c.req.method, { kind: SpanKind.SERVER, attributes }, parent, async (span) => {
      try {
        await next();
      } finally {
        const { method, route } = routeLabel(c.req.method, c.req.routePath, c.req.path, c.res.status);
        span.updateName(`${method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
        if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    });
  };
}
