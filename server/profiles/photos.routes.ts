import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';

const FILE = /^[A-Za-z0-9_-]{1,80}\.webp$/;

/** Photo files. Names are random and never reused, so they may be cached for a year. */
export function photoRoutes(photosDir: string) {
  return new Hono<AppEnv>().get('/:file', async (c) => {
    const file = c.req.param('file');
    if (!FILE.test(file)) return c.notFound();
    const path = join(photosDir, file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return c.notFound();
    return new Response(Readable.toWeb(createReadStream(path)) as ReadableStream, {
      headers: {
        'Content-Type': 'image/webp',
        'Content-Length': String(info.size),
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
