import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { createLogger } from '../infra/logger.ts';
import { chooseEncoding } from './compress.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

describe('choosing an encoding', () => {
  it('prefers brotli, then gzip, honours q=0, and falls back to none', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding(',,;;q=abc')).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('compressed answers (%s)', (kind) => {
  let t: TestApp;
  let app: ReturnType<typeof createApp>;
  const page = `<!doctype html><html><body>${'<p>Streamed, server-rendered page. </p>'.repeat(400)}</body></html>`;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 30 });
    // A page handler that streams its HTML in two chunks, as React Router does.
    app = createApp({
      services: t.services, translator: await (await import('../i18n/i18n.ts')).createTranslator(), env: (await import('../env.ts')).loadEnv({ NODE_ENV: 'test' }), logger: createLogger('silent'),
      pages: async () => new Response(new ReadableStream({
        start(controller) {
          const half = page.length / 2;
          controller.enqueue(new TextEncoder().encode(page.slice(0, half)));
          controller.enqueue(new TextEncoder().encode(page.slice(half)));
          controller.close();
        },
      }), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    });
  });
  afterAll(() => t.close());

  const get = (path: string, acceptEncoding?: string) =>
    app.request(`http://localhost${path}`, { headers: { host: 'localhost', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

  it('JSON and server-rendered HTML go out as brotli or gzip, smaller, with Vary and the security headers', async () => {
    const plain = await get('/api/members.php');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const json = await plain.text();
    expect(json.length).toBeGreaterThan(1024);

    const br = await get('/api/members.php', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(json.length / 2);
    expect(JSON.parse(brotliDecompressSync(brBytes).toString())).toEqual(JSON.parse(json));

    const html = await get('/members', 'gzip');
    expect(html.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await html.arrayBuffer())).toString()).toBe(page);
  });

  it('leaves small answers, images and HEAD requests alone', async () => {
    const small = await get('/api/profile.php?id=abc', 'br');
    expect(small.status).toBe(400);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect((await small.json()).error.code).toBe('invalid_input');
    const head = await app.request('http://localhost/api/members.php', { method: 'HEAD', headers: { host: 'localhost', 'accept-encoding': 'br' } });
    expect(head.headers.get('content-encoding')).toBeNull();
  });
});
