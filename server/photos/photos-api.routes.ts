import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import { moderationBody, photoIdBody, photoUpdateBody } from '#common/contracts/photos.ts';
import type { AppEnv } from '../http/context.ts';
import { requireOperator, validBody } from '../http/helpers.ts';
import { requireMember } from '../actor.ts';
import { AppError } from '../infra/errors.ts';
import { photoTooLarge } from './photos.service.ts';

/** Uploads have their own body limit (below) instead of the JSON one. */
export const PHOTO_UPLOAD_PATH = '/api/photos.php';

/** The photo plus the multipart envelope around it. */
export const MAX_UPLOAD_BODY = PHOTO_MAX_BYTES + 64 * 1024;

/** A member's upload: a declared huge body is refused before any of it is read. */
export const memberUpload: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireMember(c.get('ctx').actor);
  if (Number(c.req.header('content-length') ?? 0) > MAX_UPLOAD_BODY) throw photoTooLarge();
  await next();
};
/** The photo plus its multipart envelope, however the body is sent. */
export const uploadBodyLimit = bodyLimit({ maxSize: MAX_UPLOAD_BODY, onError: () => { throw photoTooLarge(); } });

/** The `photo` file of a multipart upload and its other text fields; a missing or empty file is refused. */
export async function photoUpload(c: Context<AppEnv>): Promise<{ file: Buffer; fields: Record<string, string> }> {
  if (!(c.req.header('content-type') ?? '').includes('multipart/form-data')) throw new AppError(400, 'photo_missing');
  const body = await c.req.parseBody().catch(() => {
    throw new AppError(400, 'photo_missing');
  });
  const file = body.photo;
  if (!(file instanceof File) || file.size === 0) throw new AppError(400, 'photo_missing');
  if (file.size > PHOTO_MAX_BYTES) throw photoTooLarge();
  const fields = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { file: Buffer.from(await file.arrayBuffer()), fields };
}

export const photosApiRoutes = new Hono<AppEnv>()
  /** The member's own photos with their status, and their upload limit. */
  .get('/photos.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.photos.list(ctx.actor));
  })

  /** multipart/form-data: `photo` (the file), optional `private`=1 → 201 {photo}. */
  .post(
    '/photos.php',
    memberUpload,
    uploadBodyLimit,
    async (c) => {
      const ctx = c.get('ctx');
      const { file, fields } = await photoUpload(c);
      const isPrivate = fields.private === '1' || fields.private === 'true';
      const photo = await ctx.services.photos.upload(ctx.actor, file, { isPrivate, moderation: ctx.site.photoModeration });
      return c.json({ photo }, 201);
    },
  )

  /** {id} */
  .delete('/photos.php', async (c) => {
    const ctx = c.get('ctx');
    await ctx.services.photos.remove(ctx.actor, (await validBody(c, photoIdBody)).id);
    return c.json(await ctx.services.photos.list(ctx.actor));
  })

  /** {id, main: true} or {id, private: boolean} */
  .put('/photos.php', async (c) => {
    const ctx = c.get('ctx');
    const body = await validBody(c, photoUpdateBody);
    if ('main' in body) await ctx.services.photos.setMain(ctx.actor, body.id);
    else await ctx.services.photos.setPrivate(ctx.actor, body.id, body.private);
    return c.json(await ctx.services.photos.list(ctx.actor));
  })

  /**
   * Operators (Authorization: Bearer OPERATOR_TOKEN). GET: pending profile and chat photos; GET ?file=name: a
   * file's bytes; POST {id, action: 'approve' | 'reject', kind?: 'profile' | 'chat'}.
   */
  .get('/moderation.php', async (c) => {
    const staff = requireOperator(c);
    const ctx = c.get('ctx');
    const file = c.req.query('file');
    if (file) {
      const bytes = await ctx.services.photos.file(file);
      if (!bytes) throw new AppError(404, 'not_found');
      return new Response(new Uint8Array(bytes), { headers: { 'Content-Type': 'image/webp', 'Cache-Control': 'private, no-store' } });
    }
    return c.json({ photos: await ctx.services.photos.pending(staff), chat_photos: await ctx.services.chat.pendingPhotos(staff) });
  })
  .post('/moderation.php', async (c) => {
    const staff = requireOperator(c);
    const ctx = c.get('ctx');
    const { id, action, kind } = await validBody(c, moderationBody);
    const photo = kind === 'chat' ? await ctx.services.chat.moderatePhoto(staff, id, action) : await ctx.services.photos.moderate(staff, id, action);
    return c.json({ photo });
  });
