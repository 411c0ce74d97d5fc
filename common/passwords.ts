import { z } from 'zod';

/**
 * The password rule (ASVS 5.0 6.2), shared by the browser and the server. The browser checks
 * everything here; the server also checks the list of common and breached passwords and estimates
 * how guessable the password is (server/accounts/password-policy.ts), which never reaches the bundle.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
/**
 * The most UTF-16 units a password field takes as typed, anywhere (log-in included): every password
 * of PASSWORD_MAX_LENGTH characters fits, whatever its script.
 */
export const PASSWORD_MAX_UNITS = 2 * PASSWORD_MAX_LENGTH;

export type PasswordProblem =
  | 'errors.password_too_short'
  | 'errors.password_too_long'
  | 'errors.password_blank'
  | 'errors.password_is_email'
  | 'errors.password_is_name'
  | 'errors.password_common'
  | 'errors.password_site_name'
  | 'errors.password_personal'
  | 'errors.password_guessable';

/*
 * Characters nobody sees: format characters (zero-width space and joiners, bidi marks, the BOM, soft
 * hyphen), other default-ignorable ones (variation selectors, tag characters, Hangul fillers),
 * controls, and lone surrogates. `pass\u200Bword` looks like `password` and is no harder to guess, so
 * the rules and the hash see it without them.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/**
 * The one form of a password that is checked, hashed and verified: compatibility-normalised (NFKC:
 * full-width letters, ligatures and the many kinds of space become the plain ones) and without
 * invisible characters. Case and spaces stay as typed.
 */
export function normalizePassword(password: string): string {
  // Printable ASCII is its own normal form (most passwords, and the list's 437,651 entries).
  if (PRINTABLE_ASCII.test(password)) return password;
  return password.normalize('NFKC').replace(INVISIBLE, '');
}

/** Length in characters as a person counts them: Unicode code points of the normalised password. */
export function passwordLength(password: string): number {
  // A code point takes at most two UTF-16 units, so a longer string is too long anyway: no need to walk it.
  if (password.length > PASSWORD_MAX_UNITS) return password.length;
  return [...normalizePassword(password)].length;
}

/** The form a password is compared in: normalised, lower case. */
export function comparable(value: string): string {
  return normalizePassword(value).toLowerCase();
}

// For the name, spaces do not count either: "Anna Maria" and "annamaria" are the same.
const withoutSpaces = (value: string) => comparable(value).replace(/\p{White_Space}+/gu, '');

/**
 * What is wrong with a new password, as an i18n key, or null: the cheap checks, which the browser
 * runs too. The password is taken as typed (not trimmed). `email` and `name` are the member's, when
 * known.
 */
export function passwordProblem(password: string, who: { email?: string | null; name?: string | null } = {}): PasswordProblem | null {
  const length = passwordLength(password);
  if (length > PASSWORD_MAX_LENGTH) return 'errors.password_too_long';
  // Spaces and characters that show nothing do not make a password.
  if (password.length > 0 && !/[^\p{White_Space}]/u.test(normalizePassword(password))) return 'errors.password_blank';
  if (length < PASSWORD_MIN_LENGTH) return 'errors.password_too_short';
  const candidate = comparable(password).trim();
  const email = who.email ? comparable(who.email).trim() : '';
  const at = email.lastIndexOf('@');
  if (email && (candidate === email || (at > 0 && candidate === email.slice(0, at)))) return 'errors.password_is_email';
  if (who.name && withoutSpaces(password) === withoutSpaces(who.name)) return 'errors.password_is_name';
  return null;
}

/** A new password on its own (length and blank); forms that know the e-mail or name add passwordProblem with them. */
export const newPasswordSchema = z.string({ error: 'errors.password_too_short' }).superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
