import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, prepareServerDatabase, startServer } from '../../tests/helpers/server-process.ts';
import { startTracing, statementName } from './tracing.ts';

interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[] }
interface OtlpBody { resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[] }

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
};

describe('tracing', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await startTracing({ serviceName: 'amora', role: 'all' })).toBeNull();
  });

  it('names a statement span by its first word', () => {
    expect(statementName('select "id" from "users"')).toBe('SELECT');
    expect(statementName('  -- a comment\n insert into x values (1)')).toBe('INSERT');
    expect(statementName('(select 1)')).toBe('QUERY');
  });
});

describe.skipIf(!inject('pgTemplate'))('a server with OTEL_EXPORTER_OTLP_ENDPOINT (postgres)', { timeout: 120_000 }, () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('sends a span per request, in the caller\'s trace, with its database statements under it', async () => {
    // A collector that keeps what it is sent over OTLP/HTTP (JSON).
    const received: OtlpBody[] = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') received.push(JSON.parse(Buffer.concat(chunks).toString()) as OtlpBody);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    const collectorPort = await freePort();
    await new Promise<void>((resolve) => collector.listen(collectorPort, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => collector.close(resolve)));

    const dataDir = mkdtempSync(join(tmpdir(), 'amora-tracing-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const prepared = await prepareServerDatabase('postgres', dataDir);
    cleanups.push(prepared.cleanup);
    const port = await freePort();
    const server = startServer({
      ...prepared.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, OTEL_SERVICE_NAME: 'amora-test', OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    cleanups.push(() => server.child.kill('SIGKILL'));
    await server.ready;

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`http://127.0.0.1:${port}/api/members.php?min_age=20`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);

    const spans = () => received.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    for (let i = 0; i < 100 && !spans().some((s) => s.name === 'GET /api/members.php'); i++) await new Promise((r) => setTimeout(r, 100));
    const request = spans().find((s) => s.name === 'GET /api/members.php');
    expect(request, JSON.stringify(spans().map((s) => s.name))).toBeDefined();
    expect(request!.traceId).toBe(traceId);
    expect(request!.parentSpanId).toBe('00f067aa0ba902b7');
    expect(attribute(request!, 'http.route')).toBe('/api/members.php');
    expect(Number(attribute(request!, 'http.response.status_code'))).toBe(200);
    const statements = spans().filter((s) => s.parentSpanId === request!.spanId);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.traceId).toBe(traceId);
      expect(attribute(statement, 'db.system.name')).toBe('postgresql');
      expect(statement.name).toBe(statementName(String(attribute(statement, 'db.query.text'))));
    }
    expect(statements.map((s) => s.name)).toContain('SELECT');
    const resource = received[0].resourceSpans[0].resource.attributes;
    expect(resource.find((a) => a.key === 'service.name')?.value).toEqual({ stringValue: 'amora-test' });
    // Values never leave: the search's bound age is not in any span.
    expect(JSON.stringify(spans())).not.toMatch(/"20"/);
  });
});
