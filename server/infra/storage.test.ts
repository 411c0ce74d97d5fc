import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedStorage, localStorage, s3Storage } from './storage.ts';

const CONFIG = { bucket: 'amora-photos', accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-key-for-tests', region: 'eu-west-1' };

/** A tiny stand-in for an S3 bucket that checks every request's SigV4 signature. */
function fakeBucket() {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const seen: { method: string; path: string; signed: boolean }[] = [];
  const verifier = new AwsClient({ ...CONFIG, service: 's3' });
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = `http://${req.headers.host}${req.url}`;
    // Re-sign the request as received, with the same time: the Authorization header must match exactly.
    const headers: Record<string, string> = {};
    if (req.headers['content-type']) headers['content-type'] = String(req.headers['content-type']);
    if (req.method === 'PUT') headers['x-amz-content-sha256'] = createHash('sha256').update(body).digest('hex');
    const expected = await verifier.sign(new Request(url, { method: req.method, headers, body: req.method === 'PUT' ? body : undefined }), {
      aws: { datetime: String(req.headers['x-amz-date']) },
    });
    const bodyHash = createHash('sha256').update(body).digest('hex');
    const signed = expected.headers.get('authorization') === req.headers.authorization
      && (req.method !== 'PUT' || req.headers['x-amz-content-sha256'] === bodyHash);
    seen.push({ method: req.method!, path: req.url!, signed });
    if (!signed) return res.writeHead(403).end('SignatureDoesNotMatch');
    const key = req.url!;
    if (req.method === 'PUT') {
      objects.set(key, { body, type: String(req.headers['content-type']) });
      return res.writeHead(200).end();
    }
    if (req.method === 'GET') {
      const o = objects.get(key);
      return o ? res.writeHead(200, { 'content-type': o.type }).end(o.body) : res.writeHead(404).end('NoSuchKey');
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      return res.writeHead(204).end();
    }
    res.writeHead(405).end();
  });
  return { server, objects, seen };
}

describe('photo storage', () => {
  const bucket = fakeBucket();
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => bucket.server.listen(0, '127.0.0.1', resolve));
    const address = bucket.server.address() as { port: number };
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => bucket.server.close(() => resolve())));

  it('puts, gets and deletes objects in an S3-compatible bucket with signed requests', async () => {
    const storage = s3Storage({ ...CONFIG, endpoint });
    const bytes = Buffer.from('RIFF....WEBPVP8 fake photo bytes');
    await storage.put('abc_DEF-123.webp', bytes, 'image/webp');
    expect(bucket.objects.get('/amora-photos/photos/abc_DEF-123.webp')).toEqual({ body: bytes, type: 'image/webp' });
    expect(await storage.get('abc_DEF-123.webp')).toEqual(bytes);
    await storage.delete('abc_DEF-123.webp');
    expect(await storage.get('abc_DEF-123.webp')).toBeNull();
    expect(bucket.seen.map((s) => [s.method, s.signed])).toEqual([['PUT', true], ['GET', true], ['DELETE', true], ['GET', true]]);
  });

  it('answers 503 when the bucket is away, and serves the files it kept from memory', async () => {
    const storage = cachedStorage(s3Storage({ ...CONFIG, endpoint }), 100);
    await storage.put('kept.webp', Buffer.alloc(60, 1), 'image/webp');
    await storage.put('other.webp', Buffer.alloc(50, 2), 'image/webp');
    const away = cachedStorage(s3Storage({ ...CONFIG, endpoint: 'http://127.0.0.1:9' }), 100);
    await expect(away.put('x.webp', Buffer.from('x'), 'image/webp')).rejects.toMatchObject({ status: 503, code: 'unavailable' });
    // Over 100 bytes, the least recently used file left the cache: it is read from the bucket again.
    bucket.seen.length = 0;
    expect((await storage.get('other.webp'))?.[0]).toBe(2);
    expect((await storage.get('kept.webp'))?.[0]).toBe(1);
    expect(bucket.seen.map((s) => [s.method, s.path])).toEqual([['GET', '/amora-photos/photos/kept.webp']]);
    await storage.delete('kept.webp');
    expect(await storage.get('kept.webp')).toBeNull();
  });

  it('fails loudly when the bucket refuses the signature', async () => {
    const storage = s3Storage({ ...CONFIG, secretAccessKey: 'wrong', endpoint });
    await expect(storage.put('x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(/403/);
  });

  it('refuses file names that could leave the photo folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-storage-'));
    try {
      const storage = localStorage(dir);
      await expect(storage.put('../evil.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow();
      expect(await storage.get('../../etc/passwd')).toBeNull();
      await storage.put('good.webp', Buffer.from('ok'), 'image/webp');
      expect((await storage.get('good.webp'))!.toString()).toBe('ok');
      await storage.delete('good.webp');
      expect(await storage.get('good.webp')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
