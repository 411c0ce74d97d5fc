import { z } from 'zod';
import { GENDERS } from '../constants.ts';
import { searchSchema } from '../schemas.ts';
import { contracts } from './contract.ts';
import { profileSummarySchema } from './shapes.ts';

const filtersSchema = z.strictObject({
  gender: z.enum(GENDERS).optional(),
  country: z.string().optional(),
  countryregion: z.string().optional(),
  min_age: z.number().int(),
  max_age: z.number().int(),
});

const cursor = z.string().nullable();

export const searchContracts = contracts({
  search: {
    method: 'get', path: '/api/members.php', summary: 'Search members',
    description: 'Newest members first. The first page carries numResults (capped at 1000) and, when few match, similar results from relaxed filters; '
      + 'cursor pages on, similar=<level>&cursor= pages the similar list. Visitors may search when the site allows it.',
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
        }),
      },
    },
  },
});
