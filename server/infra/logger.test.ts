import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { createLogger } from './logger.ts';

/** A destination that keeps every JSON line written to it. */
function memoryStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('structured logs', () => {
  const out = memoryStream();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0, logger: createLogger('info', out.stream) });
  });
  afterAll(() => t.close());

  it('writes one JSON line per request with request id, site, member and duration', async () => {
    const { client, user } = await signUp(t);
    out.lines.length = 0;
    const res = await client.get('/api/user.php', { 'x-request-id': 'edge-42' });
    expect(res.status).toBe(200);
    const [line] = out.records().filter((r) => r.msg === 'request');
    expect(line).toMatchObject({ level: 'info', reqId: 'edge-42', method: 'GET', path: '/api/user.php', status: 200, site: 'localhost', userId: user.id });
    expect(typeof line.ms).toBe('number');
    expect(typeof line.time).toBe('string');
  });

  it('replaces a request id that is not one, and never logs passwords, tokens or query strings', async () => {
    out.lines.length = 0;
    const client = t.client();
    await client.post('/api/user.php', { email: 'demo@example.com', password: 'amora-demo' }, { 'x-request-id': 'bad id\twith tab' });
    await client.get('/api/activate.php?token=very-secret-activation-token');
    const text = out.lines.join('\n');
    expect(text).not.toContain('amora-demo');
    expect(text).not.toContain('very-secret-activation-token');
    const ids = out.records().filter((r) => r.msg === 'request').map((r) => r.reqId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps errors with their stack and redacts secret fields a caller passes', () => {
    const mem = memoryStream();
    const logger = createLogger('debug', mem.stream);
    logger.error('sending failed', { to: 'a@example.com', password: 'p4ss', nested: { token: 't0ken' } }, new Error('boom'));
    logger.debug('count', 3);
    const [error, debug] = mem.records();
    expect(error).toMatchObject({ level: 'error', msg: 'sending failed', to: 'a@example.com', password: '[redacted]', nested: { token: '[redacted]' } });
    expect((error.err as { stack: string }).stack).toContain('boom');
    expect(debug).toMatchObject({ level: 'debug', msg: 'count 3' });
  });

  it('writes nothing at level silent, and no request lines at level error', () => {
    const mem = memoryStream();
    createLogger('silent', mem.stream).error('x');
    const errorsOnly = createLogger('error', mem.stream);
    errorsOnly.request({ reqId: 'r', method: 'GET', path: '/', status: 200, ms: 1 });
    errorsOnly.info('hidden');
    expect(mem.lines).toEqual([]);
  });
});
