import { z } from 'zod';
import { matchPreferencesSchema, swipeSchema } from '../games.ts';
import { GENDERS } from '../constants.ts';
import { contracts } from './contract.ts';
import { isoDateTime, okSchema, profileSummaryFields, profileSummarySchema } from './shapes.ts';

const swipeState = {
  likes_left: z.number().int().nonnegative(),
  likes_per_day: z.number().int().positive(),
  /** When the member's day ends and the likes come back. */
  resets_at: isoDateTime,
};

const preferences = z.strictObject({
  gender: z.enum(GENDERS).nullable(),
  min_age: z.number().int(),
  max_age: z.number().int(),
  max_distance_km: z.number().int().nullable(),
});

const matchReason = z.strictObject({
  code: z.enum(['age', 'distance', 'region', 'active', 'interests', 'photo']),
  value: z.union([z.number(), z.string()]).optional(),
});

export const gamesContracts = contracts({
  swipeDeck: {
    method: 'get', path: '/api/swipe-game.php', auth: 'member', summary: 'The swipe game\'s next cards and today\'s likes left',
    responses: { 200: { description: 'The deck.', schema: z.strictObject({ profiles: z.array(profileSummarySchema), ...swipeState }) } },
  },
  swipe: {
    method: 'post', path: '/api/swipe-game.php', auth: 'member', summary: 'Like or pass one card',
    description: 'Likes are limited per day (429 like_limit_reached with Retry-After).',
    body: swipeSchema,
    responses: {
      200: [
        { description: 'Liked.', schema: z.strictObject({ match: z.boolean(), ...swipeState }) },
        { description: 'Passed.', schema: okSchema },
      ],
    },
  },
  swipeUndo: {
    method: 'delete', path: '/api/swipe-game.php', auth: 'member', summary: 'Undo the last pass',
    responses: { 200: { description: 'The card to show again.', schema: z.strictObject({ profile: profileSummarySchema }) } },
  },
  matchFinder: {
    method: 'get', path: '/api/match-finder.php', auth: 'member', summary: 'Match finder candidates',
    description: 'Members who fit the saved preferences, ranked, each with the reasons it was chosen; none until preferences are saved.',
    responses: {
      200: {
        description: 'The preferences and the candidates.',
        schema: z.strictObject({
          saved: z.boolean(),
          preferences,
          profiles: z.array(z.strictObject({ ...profileSummaryFields, score: z.number().int(), reasons: z.array(matchReason) })),
        }),
      },
    },
  },
  saveMatchPreferences: {
    method: 'put', path: '/api/match-finder.php', auth: 'member', summary: 'Save the match finder questionnaire',
    body: matchPreferencesSchema,
    responses: { 200: { description: 'Saved.', schema: z.strictObject({ saved: z.literal(true), preferences }) } },
  },
});
