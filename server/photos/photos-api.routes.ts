import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import { photoContracts } from '#common/contracts/photos.ts';
import type { AppEnv } from '../http/context.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { requireMember } from '../actor.ts';
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

export const photosApiRoutes = new ApiRoutes()
  /** The member's own photos with their status, and their upload limit. */
  .endpoint(photoContracts.list, async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.photos.list(ctx.actor));
  })

  /** multipart/form-data: `photo` (the file), optional `private`=1 → 201 {photo}. */
  .endpoint(photoContracts.upload, { before: [memberUpload, uploadBodyLimit] }, async (c, { form }) => {
    const ctx = c.get('ctx');
    // Refused before the member's photo limits are counted, like a body over the upload limit.
    if (form.photo.size > PHOTO_MAX_BYTES) throw photoTooLarge();
    const file = Buffer.from(await form.photo.arrayBuffer());
    const photo = await ctx.services.photos.upload(ctx.actor, file, { isPrivate: form.private });
    return c.json({ photo }, 201);
  })

  /** {id} */
  .endpoint(photoContracts.remove, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.photos.remove(ctx.actor, body.id);
    return c.json(await ctx.services.photos.list(ctx.actor));
  })

  /** {order: [id, …]}: every one of the member's photos, first to last. */
  .endpoint(photoContracts.reorder, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.photos.reorder(ctx.actor, body.order);
    return c.json(await ctx.services.photos.list(ctx.actor));
  })

  /** {id, main: true} or {id, private: boolean} */
  .endpoint(photoContracts.update, async (c, { body }) => {
    const ctx = c.get('ctx');
    if ('main' in body) await ctx.services.photos.setMain(ctx.actor, body.id);
    else await ctx.services.photos.setPrivate(ctx.actor, body.id, body.private);
    return c.json(await ctx.services.photos.list(ctx.actor));
  });
