import { z } from 'zod';
import { COUNTRIES, GENDERS, INTERESTS, type Gender } from './constants.ts';
import { textSchema } from './input.ts';
import { aboutSchema, nameSchema } from './schemas.ts';

/** Member attributes of spec section 3. Values are stable keys; labels live in locales (`profile_fields.*`). */
export const SEXUALITIES = ['hetero', 'gay', 'lesbian', 'bi'] as const;
export const HAIR_COLORS = ['black', 'brown', 'blonde', 'red', 'grey', 'bald', 'other'] as const;
export const EYE_COLORS = ['brown', 'blue', 'green', 'grey', 'hazel', 'other'] as const;
export const BODY_TYPES = ['slim', 'normal', 'fat'] as const;
export const RELATIONSHIP_STATUSES = ['divorced', 'living_together', 'married', 'unmarried', 'single', 'widowed'] as const;
export const TATTOOS = ['none', 'one', 'some', 'many'] as const;
export const SIGNUP_REASONS = ['relationship', 'friendship', 'flirt', 'chat', 'adventure'] as const;

/**
 * The gender a member's "looking for" answer asks for: straight members look for the other gender, gay and
 * lesbian members for their own; bisexual members (and those who did not answer) for both.
 */
export function soughtGender(gender: Gender, sexuality: string | null): Gender | undefined {
  if (sexuality === 'hetero') return gender === 'male' ? 'female' : 'male';
  if (sexuality === 'gay' || sexuality === 'lesbian') return gender;
  return undefined;
}

/** The single-choice attributes and their values, in the order the form and the profile show them. */
export const ATTRIBUTE_OPTIONS = {
  gender: GENDERS,
  sexuality: SEXUALITIES,
  hair_color: HAIR_COLORS,
  eye_color: EYE_COLORS,
  body_type: BODY_TYPES,
  relationship_status: RELATIONSHIP_STATUSES,
  tattoos: TATTOOS,
  signup_reason: SIGNUP_REASONS,
} as const;
export type AttributeKey = keyof typeof ATTRIBUTE_OPTIONS;
export const ATTRIBUTE_KEYS = Object.keys(ATTRIBUTE_OPTIONS) as AttributeKey[];

export const ABOUT_MAX = 2000;

/** An optional choice: empty means "not said". */
function choice<T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((v) => (v === '' || v === undefined ? null : v), z.enum(values, { error: 'errors.invalid_choice' }).nullable());
}

/** The described attributes after gender and sexuality, each an optional choice: the profile form's and the console's fictional profiles'. */
export const DESCRIBED_ATTRIBUTES = {
  hair_color: choice(HAIR_COLORS),
  eye_color: choice(EYE_COLORS),
  body_type: choice(BODY_TYPES),
  relationship_status: choice(RELATIONSHIP_STATUSES),
  tattoos: choice(TATTOOS),
  signup_reason: choice(SIGNUP_REASONS),
};

/** The display name is the member's e-mail address: refused, the name is shown to everyone. */
export function nameIsEmail(name: string, email: string): boolean {
  return name.toLowerCase() === email.trim().toLowerCase();
}

/**
 * One schema for the /profile form, in the browser and in PUT /api/profile.php. With the member's `email` it also
 * refuses that address as the name; the API's contract cannot know it, so the use case checks that too.
 */
export function profileSchema(email?: string) {
  return z
    .object({
      name: nameSchema,
      gender: z.enum(GENDERS, { error: 'errors.gender_required' }),
      sexuality: choice(SEXUALITIES),
      ...DESCRIBED_ATTRIBUTES,
      interests: z.array(z.enum(INTERESTS, { error: 'errors.invalid_choice' }), { error: 'errors.invalid_choice' })
        .max(INTERESTS.length, 'errors.invalid_choice')
        .transform((list) => [...new Set(list)]),
      about: aboutSchema,
      country: z.enum(COUNTRIES as [string, ...string[]], { error: 'errors.country_required' }),
      region: z.preprocess(
        (v) => (v === '' || v === undefined ? null : v),
        textSchema({ max: 100, tooLong: 'errors.region_invalid', invalid: 'errors.region_invalid' }).nullable(),
      ),
    })
    .superRefine((v, ctx) => {
      if (v.name.startsWith('@')) ctx.addIssue({ code: 'custom', path: ['name'], message: 'errors.name_starts_with_at' });
      if (email && nameIsEmail(v.name, email)) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'errors.name_equals_email' });
      }
    });
}
export type ProfileInput = z.infer<ReturnType<typeof profileSchema>>;

/** Photo upload limits (spec sections 5, 6 and 9 and the content checks). */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const PHOTO_MAX_PIXELS = 40_000_000;
