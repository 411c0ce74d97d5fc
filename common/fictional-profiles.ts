import { z } from 'zod';
import { COUNTRIES, GENDERS, MIN_AGE } from './constants.ts';
import { textSchema } from './input.ts';
import { DESCRIBED_ATTRIBUTES } from './profile.ts';
import { aboutSchema, ageOn, isValidIsoDate, nameSchema } from './schemas.ts';

/** Whom a fictional profile looks for: it decides the profile's sexuality as a member's answer would. */
export const LOOKING_FOR = ['male', 'female', 'both'] as const;

/**
 * The console's form for a fictional profile (create and edit), the same schema in the browser and the use case.
 * `today` checks the birth date against the minimum age. Messages are translation keys.
 */
export const fictionalProfileSchema = (today: Date) => z.object({
  name: nameSchema,
  birth_date: z.string().refine(isValidIsoDate, 'errors.birth_date_invalid')
    .refine((v) => !isValidIsoDate(v) || ageOn(v, today) >= MIN_AGE, 'errors.min_age')
    .refine((v) => !isValidIsoDate(v) || ageOn(v, today) <= 99, 'errors.birth_date_invalid'),
  gender: z.enum(GENDERS, { error: 'errors.invalid_input' }),
  looking_for: z.enum(LOOKING_FOR, { error: 'errors.invalid_input' }),
  country: z.string().refine((c) => COUNTRIES.includes(c), 'errors.country_required'),
  region: textSchema({ max: 100, tooLong: 'errors.region_invalid' }).default('').transform((v) => v || null),
  ...DESCRIBED_ATTRIBUTES,
  about: aboutSchema.default(''),
  notes: textSchema({ max: 5000, multiline: true, tooLong: 'errors.field_too_long' }).default(''),
});

export type FictionalProfileFields = z.output<ReturnType<typeof fictionalProfileSchema>>;

/** The sexuality a "looking for" answer stands for. */
export function sexualityFor(gender: (typeof GENDERS)[number], lookingFor: (typeof LOOKING_FOR)[number]): 'hetero' | 'gay' | 'lesbian' | 'bi' {
  if (lookingFor === 'both') return 'bi';
  if (lookingFor !== gender) return 'hetero';
  return gender === 'male' ? 'gay' : 'lesbian';
}
