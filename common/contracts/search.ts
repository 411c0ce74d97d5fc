import { z } from 'zod';
import { GENDERS } from '../constants.ts';
import { DISTANCE_FILTERS, DISTANCE_UNITS } from '../distance.ts';
import { locationSchema, searchSchema } from '../schemas.ts';
import { contracts } from './contract.ts';
import { profileSummarySchema } from './shapes.ts';

const filtersSchema = z.strictObject({
  gender: z.enum(GENDERS).optional(),
  country: z.string().optional(),
  countryregion: z.string().optional(),
  min_age: z.number().int(),
  max_age: z.number().int(),
  distance: z.enum(DISTANCE_FILTERS).optional(),
});

const cursor = z.string().nullable();

/** The member's own shared place (the town), or null when they share none. */
const locationAnswer = z.strictObject({ location: z.strictObject({ city: z.string().nullable() }).nullable() });

export const searchContracts = contracts({
  search: {
    method: 'get', path: '/api/members.php', summary: 'Search members',
    description: 'Newest members first. The first page carries numResults (capped at 1000) and, when few match, similar results from relaxed filters; '
      + 'cursor pages on, similar=<level>&cursor= pages the similar list. Visitors may search when the site allows it. '
      + 'A member who shared a location sees distances on the cards and may filter by distance (distance=25km or 25mi); '
      + 'without a shared location the distance filter is refused (400).',
    query: searchSchema,
    responses: {
      200: {
        description: 'A page of results.',
        schema: z.strictObject({
          profiles: z.array(profileSummarySchema),
          numResults: z.number().int().nonnegative().nullable(),
          numResults_capped: z.boolean(),
          next_cursor: cursor,
          similar_results: z.strictObject({
            level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
            filters: filtersSchema,
            profiles: z.array(profileSummarySchema),
            next_cursor: cursor,
          }).nullable(),
          similar_numResults: z.number().int().nonnegative().nullable(),
          /** The searching member's unit when they shared a location (cards then carry distances); null otherwise. */
          distance_unit: z.enum(DISTANCE_UNITS).nullable(),
        }),
      },
    },
  },
  shareLocation: {
    method: 'put', path: '/api/location.php', auth: 'member', summary: 'Share the member\'s location',
    description: 'The browser\'s position; the nearest town is kept (not the position itself), for distances in search. '
      + 'Nobody else ever receives it: others see a rounded distance only.',
    body: locationSchema,
    responses: { 200: { description: 'Shared.', schema: locationAnswer } },
  },
  stopSharingLocation: {
    method: 'delete', path: '/api/location.php', auth: 'member', summary: 'Stop sharing the member\'s location',
    responses: { 200: { description: 'No location kept.', schema: locationAnswer } },
  },
});
