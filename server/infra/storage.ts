import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import { serviceUnavailable } from './unavailable.ts';

/** Where photo files live: local disk by default, an S3-compatible bucket when configured. */
export interface PhotoStorage {
  put(name: string, body: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  get(name: string): Promise<Buffer | null>;
  delete(name: string): Promise<void>;
}

/** A request to the bucket that takes longer has failed: an upload then answers 503 instead of waiting on. */
const S3_TIMEOUT_MS = 3_000;

/** Photo files kept in memory in front of the bucket (server/infra/storage.ts cachedStorage). */
const PHOTO_CACHE_BYTES = 64 * 1024 * 1024;

const SAFE_NAME = /^[A-Za-z0-9_-]{1,80}\.webp$/;

function checkName(name: string) {
  if (!SAFE_NAME.test(name)) throw new Error(`Invalid photo file name: ${name}`);
}

export function localStorage(dir: string): PhotoStorage {
  let ready: Promise<unknown> | undefined;
  return {
    async put(name, body) {
      checkName(name);
      await (ready ??= mkdir(dir, { recursive: true }));
      await writeFile(join(dir, name), body);
    },
    async get(name) {
      if (!SAFE_NAME.test(name)) return null;
      return readFile(join(dir, name)).catch(() => null);
    },
    async delete(name) {
      checkName(name);
      await rm(join(dir, name), { force: true });
    },
  };
}

export interface S3Config {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** Path-style requests (`endpoint/bucket/key`), which every S3-compatible service accepts. Signed with SigV4. */
export function s3Storage(config: S3Config, fetchImpl: typeof fetch = fetch): PhotoStorage {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, region: config.region, service: 's3',
  });
  const url = (name: string) => `${config.endpoint.replace(/\/$/, '')}/${encodeURIComponent(config.bucket)}/photos/${name}`;
  // A bucket that does not answer, or answers with a server error, is away: the request answers 503 (to be retried).
  const send = async (request: Request) => {
    let res: Response;
    try {
      res = await fetchImpl(await client.sign(request), { signal: AbortSignal.timeout(S3_TIMEOUT_MS) });
    } catch {
      throw serviceUnavailable();
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw serviceUnavailable();
    }
    return res;
  };
  return {
    async put(name, body, contentType) {
      checkName(name);
      // The payload hash is signed too, so the bucket rejects a body altered on the way.
      const sha256 = createHash('sha256').update(body).digest('hex');
      const res = await send(new Request(url(name), {
        method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': contentType, 'x-amz-content-sha256': sha256 },
      }));
      if (!res.ok) throw new Error(`Photo storage refused PUT ${name}: ${res.status}`);
      await res.body?.cancel();
    },
    async get(name) {
      if (!SAFE_NAME.test(name)) return null;
      const res = await send(new Request(url(name), { method: 'GET' }));
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`Photo storage refused GET ${name}: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async delete(name) {
      checkName(name);
      const res = await send(new Request(url(name), { method: 'DELETE' }));
      if (!res.ok && res.status !== 404) throw new Error(`Photo storage refused DELETE ${name}: ${res.status}`);
      await res.body?.cancel();
    },
  };
}

/**
 * Keeps the most recently read and written files in memory, up to `maxBytes`: they are served while the bucket is away,
 * and a popular photo is not fetched again for every viewer. A file never changes under its name (names are random),
 * so nothing kept goes stale; a deleted file leaves the cache with it.
 */
export function cachedStorage(storage: PhotoStorage, maxBytes: number): PhotoStorage {
  const files = new Map<string, Buffer>();
  let bytes = 0;
  const forget = (name: string) => {
    const file = files.get(name);
    if (file) bytes -= file.length;
    files.delete(name);
  };
  const keep = (name: string, body: Buffer) => {
    if (body.length > maxBytes) return;
    forget(name);
    files.set(name, body);
    bytes += body.length;
    // A Map iterates in insertion order: the first entries are the least recently used.
    for (const [oldest] of files) {
      if (bytes <= maxBytes) break;
      forget(oldest);
    }
  };
  return {
    async put(name, body, contentType) {
      await storage.put(name, body, contentType);
      keep(name, body);
    },
    async get(name) {
      const cached = files.get(name);
      if (cached) {
        keep(name, cached);
        return cached;
      }
      const body = await storage.get(name);
      if (body) keep(name, body);
      return body;
    },
    async delete(name) {
      forget(name);
      await storage.delete(name);
    },
  };
}

/** The configured storage: the S3 bucket (with a memory cache in front) when S3_BUCKET is set, otherwise DATA_DIR/photos. */
export function photoStorageFromEnv(
  env: { S3_ENDPOINT?: string; S3_BUCKET?: string; S3_ACCESS_KEY_ID?: string; S3_SECRET_ACCESS_KEY?: string; S3_REGION: string },
  photosDir: string,
): PhotoStorage {
  if (env.S3_BUCKET && env.S3_ENDPOINT && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) {
    return cachedStorage(s3Storage({
      endpoint: env.S3_ENDPOINT, bucket: env.S3_BUCKET, accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY, region: env.S3_REGION,
    }), PHOTO_CACHE_BYTES);
  }
  return localStorage(photosDir);
}
