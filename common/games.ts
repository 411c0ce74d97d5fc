import { z } from 'zod';
import { GENDERS, MAX_AGE, MIN_AGE } from './constants.ts';
import { idSchema } from './input.ts';

/** The furthest the match finder looks, in kilometres. */
export const MAX_MATCH_DISTANCE_KM = 1000;

/** POST /api/swipe-game.php: like or pass one card. */
export const swipeSchema = z.object({
  profile_id: idSchema(),
  action: z.enum(['like', 'pass'], { error: 'errors.invalid_input' }),
});

/** PUT /api/match-finder.php: the questionnaire. */
export const matchPreferencesSchema = z
  .object({
    gender: z.enum(GENDERS, { error: 'errors.invalid_input' }).nullable(),
    min_age: z.number({ error: 'errors.age_range_invalid' }).int('errors.age_range_invalid').min(MIN_AGE, 'errors.age_range_invalid').max(MAX_AGE, 'errors.age_range_invalid'),
    max_age: z.number({ error: 'errors.age_range_invalid' }).int('errors.age_range_invalid').min(MIN_AGE, 'errors.age_range_invalid').max(MAX_AGE, 'errors.age_range_invalid'),
    max_distance_km: z.number({ error: 'errors.invalid_input' }).int('errors.invalid_input').min(5, 'errors.invalid_input').max(MAX_MATCH_DISTANCE_KM, 'errors.invalid_input').nullable(),
  })
  .refine((p) => p.min_age <= p.max_age, { message: 'errors.age_range_invalid', path: ['max_age'] });

export type MatchPreferencesInput = z.infer<typeof matchPreferencesSchema>;
