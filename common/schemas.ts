import { z } from 'zod';
import { GENDERS, MIN_AGE, MAX_AGE, COUNTRIES, PAYMENT_METHODS, SPEND_CAP_MAX, SPEND_CAP_PERIODS } from './constants.ts';
import { newPasswordSchema, passwordProblem, PASSWORD_MAX_UNITS } from './passwords.ts';
import { idSchema, textSchema } from './input.ts';
import { discountCodeSchema } from './discounts.ts';
import { DISTANCE_FILTERS } from './distance.ts';

/**
 * One zod schema per form, shared by the browser and the server. Messages are i18n keys;
 * the server translates them into the member's language.
 */

export function ageOn(birthDate: string, today: Date): number {
  // YYYY-MM-DD by position: every list card and answer with a profile counts an age.
  const y = Number(birthDate.slice(0, 4)), m = Number(birthDate.slice(5, 7)), d = Number(birthDate.slice(8, 10));
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

export function isValidIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900;
}

export const emailSchema = textSchema({ max: 254, tooLong: 'errors.email_invalid', invalid: 'errors.email_invalid' })
  .transform((v) => v.toLowerCase())
  .pipe(z.email('errors.email_invalid'));

/** {email} of a deleted account to mail a reactivation link to (POST /api/reactivate.php, the sign-up form's offer). */
export const reactivateSchema = z.object({ email: emailSchema });

/** A member's display name: 2 to 40 characters, at least 2 of them visible. */
export const nameSchema = textSchema({ min: 2, max: 40, tooShort: 'errors.name_too_short', tooLong: 'errors.name_too_long' });

export function signupSchema(today: Date) {
  return z
    .object({
      email: emailSchema,
      name: nameSchema,
      password: newPasswordSchema,
      date_of_birth: z.string({ error: 'errors.birth_date_required' }).trim().min(1, 'errors.birth_date_required'),
      gender: z.enum(GENDERS, { error: 'errors.gender_required' }),
      country: z.enum(COUNTRIES as [string, ...string[]], { error: 'errors.country_required' }),
    })
    .superRefine((v, ctx) => {
      if (v.name.startsWith('@')) ctx.addIssue({ code: 'custom', path: ['name'], message: 'errors.name_starts_with_at' });
      if (v.name.trim().toLowerCase() === v.email.toLowerCase()) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'errors.name_equals_email' });
      }
      const passwordIssue = passwordProblem(v.password, { email: v.email, name: v.name });
      if (passwordIssue === 'errors.password_is_email' || passwordIssue === 'errors.password_is_name') {
        ctx.addIssue({ code: 'custom', path: ['password'], message: passwordIssue });
      }
      if (!isValidIsoDate(v.date_of_birth)) {
        ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'errors.birth_date_invalid' });
      } else if (ageOn(v.date_of_birth, today) < MIN_AGE) {
        ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'errors.min_age' });
      } else if (ageOn(v.date_of_birth, today) > 120) {
        ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'errors.birth_date_invalid' });
      }
    });
}
export type SignupInput = z.infer<ReturnType<typeof signupSchema>>;

/** A password typed to prove who one is: as long as any password that could have been set (PASSWORD_MAX_UNITS). */
export const loginSchema = z.object({
  email: textSchema({ min: 1, max: 254, tooShort: 'errors.login_failed', tooLong: 'errors.login_failed', invalid: 'errors.login_failed' })
    .transform((v) => v.toLowerCase()),
  password: z.string().min(1, 'errors.login_failed').max(PASSWORD_MAX_UNITS, 'errors.login_failed'),
});

export const searchSchema = z
  .object({
    gender: z.enum(GENDERS).optional().catch(undefined),
    country: z.enum(COUNTRIES as [string, ...string[]]).optional().catch(undefined),
    min_age: z.coerce.number().int().min(MIN_AGE).max(MAX_AGE).catch(MIN_AGE),
    max_age: z.coerce.number().int().min(MIN_AGE).max(MAX_AGE).catch(MAX_AGE),
    /** A region of the chosen country, by the name profiles carry (see /api/regions.php). */
    countryregion: z.preprocess(
      (v) => (v === '' ? undefined : v),
      textSchema({ min: 1, max: 100, tooShort: 'errors.region_invalid', tooLong: 'errors.region_invalid', invalid: 'errors.region_invalid' }).optional(),
    ),
    /**
     * Members within this distance of the searching member (`25km`, `25mi`, common/distance.ts): only for a member who
     * shared a location, and only members who shared one match. Anything else is refused, not ignored.
     */
    distance: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(DISTANCE_FILTERS, { error: 'errors.distance_invalid' }).optional(),
    ),
    /** Issued by the server (next_cursor); a tampered one is refused by the search. */
    cursor: z.string({ error: 'errors.invalid_input' }).max(200, 'errors.invalid_input').optional(),
    /** A further page of similar results at this relaxation level (given in the first page's similar_results). */
    similar: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2), z.literal(3)])).optional().catch(undefined),
  })
  .transform((v) => (v.min_age > v.max_age ? { ...v, min_age: v.max_age, max_age: v.min_age } : v));
export type SearchInput = z.infer<typeof searchSchema>;

const coordinate = (limit: number) => z
  .string({ error: 'errors.geocode_invalid_position' })
  .trim()
  .regex(/^[-+]?\d{1,3}(\.\d{1,12})?$/, 'errors.geocode_invalid_position')
  .transform(Number)
  .pipe(z.number().min(-limit, 'errors.geocode_invalid_position').max(limit, 'errors.geocode_invalid_position'));

/** GET /api/geocode.php: a position in decimal degrees. */
export const geocodeSchema = z.object({ lat: coordinate(90), lon: coordinate(180) });

const bodyCoordinate = (limit: number) => z
  .union([z.number(), coordinate(limit)], { error: 'errors.geocode_invalid_position' })
  .pipe(z.number().finite('errors.geocode_invalid_position').min(-limit, 'errors.geocode_invalid_position').max(limit, 'errors.geocode_invalid_position'));

/** PUT /api/location.php: the browser's position, in decimal degrees (numbers or decimal strings). */
export const locationSchema = z.object({ lat: bodyCoordinate(90), lon: bodyCoordinate(180) });

export const messageSchema = z.object({
  text: textSchema({ min: 1, max: 5000, multiline: true, tooShort: 'errors.message_empty', tooLong: 'errors.message_too_long' }),
});

/**
 * Where a purchase returns after paying (the conversation it was started from): a path on this site only.
 * `//host` and `/\host` leave the site in a browser, so a second slash or any backslash is refused, as are
 * schemes, control characters and anything that is not a path.
 */
export const returnPathSchema = z.string('errors.return_path_invalid').max(500, 'errors.return_path_invalid')
  .regex(/^\/(?![/\\])[^\\\s\p{Cc}]*$/u, 'errors.return_path_invalid');

/** The return path of a page's address (`?return=`) when it is one on this site; anything else is ignored. */
export function safeReturnPath(value: string | null | undefined): string | null {
  const parsed = returnPathSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const orderSchema = z.object({
  package_id: idSchema('errors.package_not_found'),
  paymentmethod: z.enum(PAYMENT_METHODS, { error: 'errors.payment_method_invalid' }),
  /** Keep the payment method (a mandate) for one-click repeat orders. */
  recurring: z.boolean().optional(),
  /** A discount code the member brought (link or field); the time bonus and the welcome code apply by themselves. */
  discount_code: discountCodeSchema.optional(),
  /** The price the member saw, in cents: when the price is no longer that (a bonus ran out), the order is refused (409 price_changed). */
  amount: z.int().positive().max(100_000_000).optional(),
  /** EU right of withdrawal: the member agrees that delivery starts at once and the right lapses; required. */
  withdrawal_consent: z.literal(true, { error: 'errors.withdrawal_consent_required' }),
  /** Where the payment's status page continues to (a path on this site, e.g. the conversation it was bought from). */
  return_to: returnPathSchema.optional(),
});

/** A one-click repeat order: a bundle charged on one of the member's stored mandates. */
export const repeatOrderSchema = z.object({
  package_id: idSchema('errors.package_not_found'),
  mandate_id: idSchema('errors.mandate_not_found'),
  /** Each repeat order is a new contract: the EU withdrawal consent is asked again, as on /credits. */
  withdrawal_consent: z.literal(true, { error: 'errors.withdrawal_consent_required' }),
});

export const idempotencyKeySchema = z.string().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/);

export const SEXUALITIES = ['hetero', 'gay', 'lesbian', 'bi'] as const;
export const ABOUT_MAX_LENGTH = 2000;

/** About-me: several lines of free text. */
export const aboutSchema = textSchema({ max: ABOUT_MAX_LENGTH, multiline: true, tooLong: 'errors.about_too_long' });

/** The profile fields the sign-up steps set (who you look for, where you live, about you). */
export const signupProfileSchema = z
  .object({
    sexuality: z.enum(SEXUALITIES, { error: 'errors.sexuality_invalid' }).optional(),
    country: z.enum(COUNTRIES as [string, ...string[]], { error: 'errors.country_required' }).optional(),
    region: textSchema({ max: 20, tooLong: 'errors.region_invalid', invalid: 'errors.region_invalid' }).nullable().optional(),
    about: aboutSchema.optional(),
  })
  .strict();
export type SignupProfileInput = z.infer<typeof signupProfileSchema>;

/** A new password typed twice: the second must match the first. */
const newPasswordTwice = { password: newPasswordSchema, password_confirm: z.string({ error: 'errors.passwords_mismatch' }) };
const passwordsMatch: [(v: { password: string; password_confirm: string }) => boolean, { path: string[]; message: string }] = [
  (v) => v.password === v.password_confirm,
  { path: ['password_confirm'], message: 'errors.passwords_mismatch' },
];

/** The reset form, step 1: where to send the link. */
export const passwordResetRequestSchema = z.object({ email: emailSchema });

/** The reset form, step 2: the link's token and the new password twice. */
export const passwordResetSchema = z.object({
  token: z.string({ error: 'errors.reset_link_invalid' }).min(1, 'errors.reset_link_invalid').max(200, 'errors.reset_link_invalid'),
  ...newPasswordTwice,
}).refine(...passwordsMatch);

/** Changing the password while signed in: the old one, then the new one twice, which may not be the member's address or name. */
export function passwordChangeSchema(who: { email?: string | null; name?: string | null } = {}) {
  return z.object({
    old_password: z.string({ error: 'errors.old_password_wrong' }).min(1, 'errors.old_password_wrong').max(PASSWORD_MAX_UNITS, 'errors.old_password_wrong'),
    ...newPasswordTwice,
  }).superRefine((v, ctx) => {
    const problem = passwordProblem(v.password, who);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    else if (!passwordsMatch[0](v)) ctx.addIssue({ code: 'custom', ...passwordsMatch[1] });
  });
}

/** Changing the e-mail address: the new one, and the password to prove it is the member. */
export const mailChangeSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'errors.password_wrong' }).min(1, 'errors.password_wrong').max(PASSWORD_MAX_UNITS, 'errors.password_wrong'),
});
/** PUT /api/spend-cap.php: a cap of `credits` per local day or month, or `credits: null` to remove it. */
export const spendCapRequestSchema = z.union([
  z.object({
    period: z.enum(SPEND_CAP_PERIODS, { error: 'errors.spend_cap_invalid' }),
    credits: z.number({ error: 'errors.spend_cap_invalid' }).int('errors.spend_cap_invalid').min(1, 'errors.spend_cap_invalid').max(SPEND_CAP_MAX, 'errors.spend_cap_invalid'),
  }),
  z.object({ credits: z.null() }),
], { error: 'errors.spend_cap_invalid' });
