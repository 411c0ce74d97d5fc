/**
 * OpenTelemetry tracing of requests and database calls, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (then spans go
 * to that collector over OTLP/HTTP, batched; the exporter reads the other OTEL_EXPORTER_OTLP_* variables itself).
 *
 * A request is one server span named by its route template (`GET /api/members.php`), continuing the caller's trace
 * from a `traceparent` header; every statement sent to PostgreSQL while it runs is a client span under it. Only the
 * statement's text is recorded, never its values (members' data stays out of the traces). PGlite runs its queries in
 * this process and is not traced.
 */
import { SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import pg from 'pg';

export interface Tracing {
  tracer: Tracer;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

const STATEMENT_TEXT_LIMIT = 2000;

export async function startTracing(options: { endpoint?: string; serviceName: string; role: string }): Promise<Tracing | null> {
  if (!options.endpoint) return null;
  const [{ BatchSpanProcessor, NodeTracerProvider }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'), import('@opentelemetry/exporter-trace-otlp-http'), import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName, 'amora.role': options.role, 'process.pid': process.pid }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The W3C trace context propagator and a context manager that follows async calls.
  provider.register();
  const tracer = trace.getTracer('amora');
  const restore = traceStatements(tracer);
  return {
    tracer,
    shutdown: async () => {
      restore();
      await provider.shutdown();
    },
  };
}

/** `SELECT`, `INSERT` …: the statement's first word, as the span's name (the text is an attribute). */
export function statementName(text: string): string {
  return /^\s*(?:--[^\n]*\n\s*)*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
}

type Query = (...args: unknown[]) => unknown;

/**
 * Every statement of every pg client (pools, transactions and drizzle all go through `Client#query`) becomes a span,
 * ended when the statement's promise or callback settles. Returns a function that puts the original back.
 */
export function traceStatements(tracer: Tracer): () => void {
  const query = pg.Client.prototype.query as unknown as Query;
  const traced = function traced(this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: unknown; submit?: unknown; callback?: unknown } | undefined;
    const text = typeof config === 'string' ? config : config?.text;
    // Submittables (cursors, streams) end on their own events: not traced.
    if (typeof text !== 'string' || (typeof config === 'object' && typeof config.submit === 'function')) return query.apply(this, args);
    const span = tracer.startSpan(statementName(text), {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'postgresql', 'db.namespace': this.database ?? '', 'db.query.text': text.slice(0, STATEMENT_TEXT_LIMIT) },
    });
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: Error | null, ...rest: unknown[]) => void;
      args[last] = (error: Error | null, ...rest: unknown[]) => {
        finish(span, error);
        callback(error, ...rest);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(() => finish(span), (error: Error) => finish(span, error));
    } else {
      finish(span);
    }
    return result;
  };
  pg.Client.prototype.query = traced as unknown as typeof pg.Client.prototype.query;
  return () => { pg.Client.prototype.query = query as unknown as typeof pg.Client.prototype.query; };
}

function finish(span: Span, error?: Error | null) {
  if (error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  }
  span.end();
}
