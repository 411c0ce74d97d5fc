import { getCookie } from 'hono/cookie';
import { Hono } from 'hono';
import { AUTH_COOKIE } from '#common/constants.ts';
import type { AppEnv } from '../http/context.ts';
import type { Services } from '../services.ts';

const FILE = /^[A-Za-z0-9_-]{1,80}\.webp$/;

/**
 * Photo files. An approved public main photo is open to everyone and cacheable (names are random and
 * never reused). Every other file (pending, private, further gallery photos) is served only after
 * checking the session against the same rules as the gallery, and never to shared caches.
 */
export function photoRoutes(services: Services) {
  return new Hono<AppEnv>().get('/:file', async (c) => {
    const file = c.req.param('file');
    if (!FILE.test(file)) return c.notFound();
    let access = await services.photos.fileAccess(file, null);
    if (access === 'denied') {
      const viewerId = await services.accounts.sessionUserId(getCookie(c, AUTH_COOKIE));
      if (viewerId) access = await services.photos.fileAccess(file, viewerId);
    }
    if (access === 'denied') return c.notFound();
    const body = await services.storage.get(file);
    if (!body) return c.notFound();
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': 'image/webp',
        'Content-Length': String(body.length),
        'Cache-Control': access === 'public' ? 'public, max-age=31536000, immutable' : 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
