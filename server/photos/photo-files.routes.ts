import { getCookie } from 'hono/cookie';
import { Hono } from 'hono';
import { AUTH_COOKIE } from '#common/constants.ts';
import type { AppEnv } from '../http/context.ts';
import type { UseCases } from '../use-cases.ts';
import { PHOTO_FILE_NAME } from '#common/contracts/shapes.ts';


/**
 * How photo files may be cached (docs/decisions/011-photo-caching.md). Their owner can
 * delete a photo or the whole account at any moment, and from then on the file must answer 404, so no
 * cache may keep serving it on its own:
 * - a public main photo: only the browser keeps it, and asks again every time (`private, no-cache`);
 *   the ETag makes that a 304 without the bytes, after the access check;
 * - every other file (pending, private, premium-only): never stored (`private, no-store`).
 */
export const PHOTO_CACHE_CONTROL = { public: 'private, no-cache', private: 'private, no-store' } as const;

/** File names are random and never reused, and a file never changes under its name: the name is a strong validator. */
const etagOf = (file: string) => `"${file.slice(0, -'.webp'.length)}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * Photo files. An approved public main photo is open to everyone; every other file (pending, private,
 * further gallery photos) is served only after checking the session against the same rules as the
 * gallery. Every request is checked, also a revalidation, so a deleted photo or account answers 404 at once.
 */
export function photoRoutes(services: UseCases) {
  return new Hono<AppEnv>().get('/:file', async (c) => {
    const file = c.req.param('file');
    if (!PHOTO_FILE_NAME.test(file)) return c.notFound();
    let access = await services.photos.fileAccess(file, null);
    if (access === 'denied') {
      const viewerId = await services.accounts.sessionUserId(getCookie(c, AUTH_COOKIE), c.get('site').id);
      if (viewerId) access = await services.photos.fileAccess(file, viewerId);
      // Not a profile photo: perhaps one sent in a chat, for its two members only.
      if (access === 'denied') {
        const inChat = await services.chat.photoAccess(file, viewerId);
        if (inChat === 'private') access = 'private';
      }
    }
    if (access === 'denied') return c.notFound();
    const etag = etagOf(file);
    const headers = {
      'Cache-Control': PHOTO_CACHE_CONTROL[access], ETag: etag, 'X-Content-Type-Options': 'nosniff',
      // A public main photo may be shown by a page on another origin (a site whose cdn_prefix serves photos); the rest only here.
      'Cross-Origin-Resource-Policy': access === 'public' ? 'cross-origin' : 'same-origin',
    };
    if (matches(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    const body = await services.photos.file(file);
    if (!body) return c.notFound();
    return new Response(new Uint8Array(body), {
      headers: { ...headers, 'Content-Type': 'image/webp', 'Content-Length': String(body.length) },
    });
  });
}
