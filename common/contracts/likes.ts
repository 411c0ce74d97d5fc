import { z } from 'zod';
import { contracts } from './contract.ts';
import { mainImageSchema, okSchema, profileIdBody, profileSummaryFields, profileSummarySchema } from './shapes.ts';

const likedBy = z.strictObject({ ...profileSummaryFields, like_new: z.boolean() });

export const likesContracts = contracts({
  like: {
    method: 'post', path: '/api/like.php', auth: 'member', summary: 'Like a member',
    body: profileIdBody,
    responses: { 200: { description: 'Liked; match when they liked the member too.', schema: z.strictObject({ match: z.boolean() }) } },
  },
  unlike: {
    method: 'delete', path: '/api/like.php', auth: 'member', summary: 'Take a like back',
    body: profileIdBody,
    responses: { 200: { description: 'Done.', schema: okSchema } },
  },
  autoLike: {
    method: 'get', path: '/api/auto-like.php', auth: 'member', summary: 'The profile for the new-like overlay',
    description: 'The newest like not looked at yet, or null.',
    responses: {
      200: {
        description: 'The member who liked, or null.',
        schema: z.strictObject({
          profile: z.strictObject({
            ...profileSummaryFields,
            main_image: mainImageSchema.extend({ match: z.string() }).nullable(),
            like_new: z.boolean(),
            match: z.boolean(),
          }).nullable(),
        }),
      },
    },
  },
  likes: {
    method: 'get', path: '/api/likes.php', auth: 'member', summary: 'Likes given and received',
    responses: {
      200: {
        description: 'profiles: members I liked; liked_by: members who liked me.',
        schema: z.strictObject({ profiles: z.array(profileSummarySchema), liked_by: z.array(likedBy) }),
      },
    },
  },
  blocked: {
    method: 'get', path: '/api/block.php', auth: 'member', summary: 'The members I blocked',
    responses: { 200: { description: 'Blocked members.', schema: z.strictObject({ profiles: z.array(profileSummarySchema) }) } },
  },
  block: {
    method: 'post', path: '/api/block.php', auth: 'member', summary: 'Block a member',
    body: profileIdBody,
    responses: { 200: { description: 'Blocked.', schema: z.strictObject({ blocked: z.literal(true) }) } },
  },
  unblock: {
    method: 'delete', path: '/api/block.php', auth: 'member', summary: 'Unblock a member',
    body: profileIdBody,
    responses: { 200: { description: 'Unblocked.', schema: z.strictObject({ blocked: z.literal(false) }) } },
  },
});
