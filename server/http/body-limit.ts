import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../infra/errors.ts';
import type { AppEnv } from './context.ts';

/** JSON API requests: far above any form or message the API takes (a 5,000-character message is < 30 KB). */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Form posts to pages (React Router actions). */
export const PAGE_BODY_LIMIT = 64 * 1024;

/** The console's gift form with its image (a gift's image is an icon; a photo's 15 MB are not needed). */
export const GIFT_UPLOAD_BODY_LIMIT = 4 * 1024 * 1024;

const tooLarge = () => new AppError(413, 'payload_too_large');

/** The console's gift pages, whose form posts an image. */
export const isGiftUpload = (path: string) => /^\/console\/gifts\/[^/]+$/.test(path);

/** The ceiling of the gift form's posts (requestBodyLimit leaves them to this one). */
export const uploadBodyLimit: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.method === 'POST' ? bodyLimit({ maxSize: GIFT_UPLOAD_BODY_LIMIT, onError: () => { throw tooLarge(); } })(c, next) : next();

/**
 * Every request body has a ceiling. A declared Content-Length above it is refused before any byte is
 * read; a chunked body is counted while it streams in and refused as soon as it passes the limit, so
 * a huge body is never buffered or parsed. Routes in `ownLimit` (photo uploads) enforce a larger
 * limit of their own.
 */
export function requestBodyLimit(ownLimit: (method: string, path: string) => boolean): MiddlewareHandler<AppEnv> {
  const api = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: () => { throw tooLarge(); } });
  const pages = bodyLimit({ maxSize: PAGE_BODY_LIMIT, onError: () => { throw tooLarge(); } });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || ownLimit(c.req.method, c.req.path)) return next();
    return c.req.path.startsWith('/api/') ? api(c, next) : pages(c, next);
  };
}
