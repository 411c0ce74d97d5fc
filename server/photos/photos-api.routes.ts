import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody, requireId, requireOperator, requireUserId } from '../http/helpers.ts';
import { AppError } from '../infra/errors.ts';
import { photoTooLarge } from './photos.service.ts';

/** Uploads have their own body limit (below) instead of the JSON one. */
export const PHOTO_UPLOAD_PATH = '/api/photos.php';

/** The photo plus the multipart envelope around it. */
const MAX_UPLOAD_BODY = PHOTO_MAX_BYTES + 64 * 1024;

export const photosApiRoutes = new Hono<AppEnv>()
  /** The member's own photos with their status, and their upload limit. */
  .get('/photos.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.photos.list(requireUserId(c)));
  })

  /** multipart/form-data: `photo` (the file), optional `private`=1 → 201 {photo}. */
  .post(
    '/photos.php',
    async (c, next) => {
      requireUserId(c);
      // Refuse a declared huge body before reading any of it.
      if (Number(c.req.header('content-length') ?? 0) > MAX_UPLOAD_BODY) throw photoTooLarge();
      await next();
    },
    bodyLimit({ maxSize: MAX_UPLOAD_BODY, onError: () => { throw photoTooLarge(); } }),
    async (c) => {
      const ctx = c.get('ctx');
      const userId = requireUserId(c);
      if (!(c.req.header('content-type') ?? '').includes('multipart/form-data')) throw new AppError(400, 'photo_missing');
      const body = await c.req.parseBody().catch(() => {
        throw new AppError(400, 'photo_missing');
      });
      const file = body.photo;
      if (!(file instanceof File) || file.size === 0) throw new AppError(400, 'photo_missing');
      if (file.size > PHOTO_MAX_BYTES) throw photoTooLarge();
      const isPrivate = body.private === '1' || body.private === 'true';
      const photo = await ctx.services.photos.upload(userId, Buffer.from(await file.arrayBuffer()), { isPrivate });
      return c.json({ photo }, 201);
    },
  )

  /** {id} */
  .delete('/photos.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    await ctx.services.photos.remove(userId, requireId(body.id, 'id'));
    return c.json(await ctx.services.photos.list(userId));
  })

  /** {id, main: true} or {id, private: boolean} */
  .put('/photos.php', async (c) => {
    const ctx = c.get('ctx');
    const userId = requireUserId(c);
    const body = await jsonBody(c);
    const id = requireId(body.id, 'id');
    if (body.main === true) await ctx.services.photos.setMain(userId, id);
    else if (typeof body.private === 'boolean') await ctx.services.photos.setPrivate(userId, id, body.private);
    else throw new AppError(400, 'invalid_input');
    return c.json(await ctx.services.photos.list(userId));
  })

  /**
   * Operators (Authorization: Bearer OPERATOR_TOKEN). GET: pending photos; GET ?file=name: a file's bytes;
   * POST {id, action: 'approve' | 'reject'}.
   */
  .get('/moderation.php', async (c) => {
    requireOperator(c);
    const ctx = c.get('ctx');
    const file = c.req.query('file');
    if (file) {
      const bytes = await ctx.services.photos.file(file);
      if (!bytes) throw new AppError(404, 'not_found');
      return new Response(new Uint8Array(bytes), { headers: { 'Content-Type': 'image/webp', 'Cache-Control': 'private, no-store' } });
    }
    return c.json({ photos: await ctx.services.photos.pending() });
  })
  .post('/moderation.php', async (c) => {
    requireOperator(c);
    const ctx = c.get('ctx');
    const body = await jsonBody(c);
    if (body.action !== 'approve' && body.action !== 'reject') throw new AppError(400, 'invalid_input');
    return c.json({ photo: await ctx.services.photos.moderate(requireId(body.id, 'id'), body.action) });
  });
