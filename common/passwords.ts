import { z } from 'zod';

/**
 * The password rule (ASVS 5.0 6.2), shared by the browser and the server. The browser checks
 * everything here; the server also checks the list of common and breached passwords
 * (server/accounts/password-policy.ts), which never reaches the bundle.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem =
  | 'errors.password_too_short'
  | 'errors.password_too_long'
  | 'errors.password_blank'
  | 'errors.password_is_email'
  | 'errors.password_is_name'
  | 'errors.password_common';

/** Length in characters as a person counts them: Unicode code points after NFC. */
export function passwordLength(password: string): number {
  // A code point takes at most two UTF-16 units, so a longer string is too long anyway: no need to walk it.
  if (password.length > 2 * PASSWORD_MAX_LENGTH) return password.length;
  return [...password.normalize('NFC')].length;
}

// Spaces and characters that show nothing (zero-width, joiners, BOM) do not make a password.
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]*$/u;

/** The form a password is compared in: NFC, lower case. */
export function comparable(value: string): string {
  return value.normalize('NFC').toLowerCase();
}

// For the name, spaces do not count either: "Anna Maria" and "annamaria" are the same.
const withoutSpaces = (value: string) => comparable(value).replace(/[\p{White_Space}\p{Default_Ignorable_Code_Point}]+/gu, '');

/**
 * What is wrong with a new password, as an i18n key, or null. The password is taken as typed (not
 * trimmed). `email` and `name` are the member's, when known.
 */
export function passwordProblem(password: string, who: { email?: string | null; name?: string | null } = {}): PasswordProblem | null {
  const length = passwordLength(password);
  if (length > PASSWORD_MAX_LENGTH) return 'errors.password_too_long';
  if (length > 0 && INVISIBLE_ONLY.test(password)) return 'errors.password_blank';
  if (length < PASSWORD_MIN_LENGTH) return 'errors.password_too_short';
  const candidate = comparable(password.trim());
  const email = who.email ? comparable(who.email.trim()) : '';
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
