import { z } from 'zod';
import { PREMIUM_PHOTO_LIMIT } from '../constants.ts';
import { contracts, staffAuth } from './contract.ts';
import { PHOTO_FILE_NAME, id, idParam, isoDateTime, ownPhotoSchema } from './shapes.ts';

const ownPhotos = z.strictObject({ photos: z.array(ownPhotoSchema), limit: z.number().int().nonnegative() });
const moderators = 'Moderators (or admins), through a console session or a staff API token with the moderator scope; photos of members of the sites they reach.';

/** {id, main: true} or {id, private: boolean}. */
export const photoUpdateBody = z.union([z.object({ id: idParam, main: z.literal(true) }), z.object({ id: idParam, private: z.boolean() })]);
export const photoIdBody = z.object({ id: idParam });
/** {order: [id, …]}: every one of the member's photos once, first to last (25 at most, the premium limit). */
export const photoOrderBody = z.object({ order: z.array(idParam).min(1).max(PREMIUM_PHOTO_LIMIT) });
export const moderationBody = z.object({ id: idParam, action: z.enum(['approve', 'reject']), kind: z.enum(['profile', 'chat']).default('profile') });

export const photoContracts = contracts({
  list: {
    method: 'get', path: '/api/photos.php', auth: 'member', summary: 'The member\'s own photos and upload limit',
    responses: { 200: { description: 'The photos.', schema: ownPhotos } },
  },
  upload: {
    method: 'post', path: '/api/photos.php', auth: 'member', summary: 'Upload a photo',
    description: 'JPEG, PNG, WebP, HEIF, AVIF or GIF; stored as WebP. Shown at once and reviewed afterwards, or pending until approved, as the site moderates.',
    form: z.object({
      photo: z.file({ error: 'errors.photo_missing' }).min(1, 'errors.photo_missing'),
      // Any other value is public.
      private: z.enum(['1', 'true', '0', 'false']).optional().catch(undefined).transform((v) => v === '1' || v === 'true'),
    }),
    responses: { 201: { description: 'The new photo.', schema: z.strictObject({ photo: ownPhotoSchema }) } },
  },
  update: {
    method: 'put', path: '/api/photos.php', auth: 'member', summary: 'Make a photo the main one, or private or public',
    body: photoUpdateBody,
    responses: { 200: { description: 'The photos after the change.', schema: ownPhotos } },
  },
  reorder: {
    method: 'put', path: '/api/photo-order.php', auth: 'member', summary: 'Put the member\'s photos in their order',
    description: 'Names every one of the member\'s photos once, first to last; the first public photo that is not rejected becomes the main photo. '
      + 'A list that leaves a photo out, names one twice or names another member\'s answers 400 photo_order_invalid and changes nothing.',
    body: photoOrderBody,
    responses: { 200: { description: 'The photos in their new order.', schema: ownPhotos } },
  },
  remove: {
    method: 'delete', path: '/api/photos.php', auth: 'member', summary: 'Delete a photo',
    body: photoIdBody,
    responses: { 200: { description: 'The photos left.', schema: ownPhotos } },
  },
  moderationQueue: {
    method: 'get', path: '/api/moderation.php', auth: staffAuth('moderator'), summary: 'Pending photos, or one file\'s bytes',
    description: `${moderators} With ?file=name the file itself.`,
    query: z.object({ file: z.string().regex(PHOTO_FILE_NAME).optional() }),
    responses: {
      200: [
        {
          description: 'Profile and chat photos no moderator has looked at yet, oldest first.',
          schema: z.strictObject({
            photos: z.array(z.strictObject({
              id, user_id: id, filename: z.string(), thumb_filename: z.string(), is_private: z.boolean(), status: z.enum(['pending', 'active']), created_at: isoDateTime,
            })),
            chat_photos: z.array(z.strictObject({ id, user_id: id, filename: z.string(), thumb_filename: z.string(), created_at: isoDateTime })),
          }),
        },
        { description: 'With ?file: the image.', contentType: 'image/webp' },
      ],
    },
  },
  moderate: {
    method: 'post', path: '/api/moderation.php', auth: staffAuth('moderator'), summary: 'Approve or reject a photo',
    description: moderators,
    body: moderationBody,
    responses: { 200: { description: 'The decision.', schema: z.strictObject({ photo: z.strictObject({ id, status: z.enum(['active', 'rejected']) }) }) } },
  },
});
