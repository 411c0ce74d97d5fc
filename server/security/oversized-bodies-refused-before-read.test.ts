import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { JSON_BODY_LIMIT } from '../http/body-limit.ts';

const MB = 1024 * 1024;
const HUNDRED_MB = 100 * MB;

/** A 100 MB JSON-looking body, produced only as fast as the server reads it; `pulled` says how much it read. */
function hugeBody() {
  const chunk = new TextEncoder().encode(`{"email":"${'a'.repeat(64 * 1024 - 11)}`);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= HUNDRED_MB) return controller.close();
      state.pulled += chunk.length;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

describe.each(DATABASE_KINDS)('every request body has a limit (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  });

  const send = (path: string, body: BodyInit, headers: Record<string, string> = {}) => t.app.request(`http://localhost${path}`, {
    method: 'POST', headers: { host: 'localhost', 'content-type': 'application/json', ...headers }, body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit, { incoming: { socket: { remoteAddress: '127.9.9.9' } } });

  it.each(['/api/user.php', '/api/signup.php', '/api/password-reset.php', '/api/reactivate.php'])(
    'refuses a declared 100 MB body to %s before reading it', async (path) => {
      const { stream, state } = hugeBody();
      const res = await send(path, stream, { 'content-length': String(HUNDRED_MB) });
      expect(res.status).toBe(413);
      expect((await res.json()).error).toMatchObject({ code: 'payload_too_large', message: 'The request is too large.' });
      expect(state.pulled).toBeLessThan(MB);
    },
  );

  it('stops reading a chunked 100 MB body without Content-Length once it passes the limit', async () => {
    const { stream, state } = hugeBody();
    const res = await send('/api/user.php', stream);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
    expect(state.pulled).toBeLessThan(JSON_BODY_LIMIT + 2 * 64 * 1024);
  });

  it('limits JSON at 64 KB, answers in the visitor’s language, and keeps smaller bodies working', async () => {
    const over = await send('/api/user.php', JSON.stringify({ email: 'a'.repeat(JSON_BODY_LIMIT), password: 'x' }), { 'accept-language': 'de' });
    expect(over.status).toBe(413);
    expect((await over.json()).error).toEqual({ code: 'payload_too_large', message: 'Die Anfrage ist zu groß.' });
    const under = await send('/api/user.php', JSON.stringify({ email: 'a'.repeat(JSON_BODY_LIMIT - 1000), password: 'x' }));
    expect(under.status).toBe(400);
    expect((await under.json()).error.code).toBe('login_failed');
  });

  it('limits form posts to pages too', async () => {
    const { stream, state } = hugeBody();
    const res = await t.app.request('http://localhost/login', {
      method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: stream, duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
    expect(state.pulled).toBeLessThan(MB);
  });

  it('lets photo uploads keep their own, larger limit', async () => {
    const { client } = await signUp(t);
    const form = new FormData();
    form.set('photo', new Blob([new Uint8Array(200 * 1024)], { type: 'image/jpeg' }), 'big.jpg');
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const upload = await t.app.request('http://localhost/api/photos.php', { method: 'POST', headers: { host: 'localhost', cookie }, body: form });
    // 200 KB passes the body limit and reaches the photo checks (not an image: 415), no 413.
    expect(upload.status).toBe(415);
    expect((await upload.json()).error.code).toBe('photo_invalid');
    const { stream, state } = hugeBody();
    const huge = await t.app.request('http://localhost/api/photos.php', {
      method: 'POST', headers: { host: 'localhost', cookie, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(HUNDRED_MB) }, body: stream, duplex: 'half',
    } as RequestInit);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe('photo_too_large');
    expect(state.pulled).toBeLessThan(MB);
  });
});

describe('over a real socket, a 100 MB body is refused early', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    server = createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** Streams up to 100 MB and stops as soon as the answer arrives; returns the status and how much was written. */
  function stream(headers: Record<string, string>) {
    return new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
      let written = 0;
      let answered = false;
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/user.php', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        answered = true;
        let body = '';
        res.on('data', (d) => { body += d; });
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, written });
        });
      });
      req.on('error', (error) => { if (!answered) reject(error); });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!answered && written < HUNDRED_MB) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      req.write('{"email":"');
      pump();
    });
  }

  it('with Content-Length', async () => {
    const res = await stream({ 'content-length': String(HUNDRED_MB + 10) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
    expect(res.written).toBeLessThan(20 * MB);
  });

  it('chunked, without Content-Length', async () => {
    const res = await stream({ 'transfer-encoding': 'chunked' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
    expect(res.written).toBeLessThan(20 * MB);
  });
});
