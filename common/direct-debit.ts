import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { idSchema, isReference, textSchema } from './input.ts';

/**
 * SEPA direct debit with an SMS code (docs/decisions/034): the rules the browser and the server share.
 * An IBAN is written without spaces in capitals; a mobile number in E.164 (+ and 8 to 15 digits).
 */

/** "nl91 abna 0417 1643 00" → "NL91ABNA0417164300"; anything that is no IBAN shape stays as typed (upper case, no spaces). */
export function normaliseIban(value: string): string {
  return electronicFormatIBAN(value) ?? value.replace(/[\s-]+/g, '').toUpperCase();
}

/** A valid IBAN (country format and check digits) of a country in the SEPA scheme. */
export function isSepaIban(iban: string): boolean {
  return isValidIBAN(iban) && isSEPACountry(iban.slice(0, 2));
}

/**
 * "+31 6 1234-5678", "0031 (6) 12345678" → "+31612345678"; null when it is not an international number.
 * Local numbers (06…) are refused: without the country code the SMS gateway cannot know the country.
 */
export function normalisePhone(value: string): string | null {
  let digits = value.trim().replace(/[\s().\-/]/g, '');
  if (digits.startsWith('00')) digits = `+${digits.slice(2)}`;
  return /^\+[1-9][0-9]{7,14}$/.test(digits) ? digits : null;
}

/** "+31612345678" → "+31 •••• 5678" (no-break spaces: it stays on one line): what the page shows of the number the code went to. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}\u00a0••••\u00a0${phone.slice(-4)}`;
}

/** The SMS code: six digits. */
export const SMS_CODE = /^[0-9]{6}$/;

const ibanSchema = z.string({ error: 'errors.iban_invalid' }).transform(normaliseIban).superRefine((value, ctx) => {
  if (value === '') ctx.addIssue({ code: 'custom', message: 'errors.iban_required' });
  else if (value.length > 34 || !isValidIBAN(value)) ctx.addIssue({ code: 'custom', message: 'errors.iban_invalid' });
  else if (!isSEPACountry(value.slice(0, 2))) ctx.addIssue({ code: 'custom', message: 'errors.iban_not_sepa' });
});

const phoneSchema = z.string({ error: 'errors.phone_invalid' }).max(40, { error: 'errors.phone_invalid' }).transform((value, ctx) => {
  const phone = normalisePhone(value);
  if (phone === null) {
    ctx.addIssue({ code: 'custom', message: value.trim() === '' ? 'errors.phone_required' : 'errors.phone_invalid' });
    return z.NEVER;
  }
  return phone;
});

const required = (max: number, message: string) => textSchema({ min: 1, max, tooShort: message, tooLong: 'errors.field_too_long' });

/** A check box the member must tick: true in JSON, "on" from a form. */
const ticked = (message: string) => z.union([z.literal(true), z.literal('on')], { error: message }).transform(() => true as const);

/** Step 1: the account, the address, the mobile number and the two consents; the bundle and the price the member saw. */
export const directDebitStartSchema = z.object({
  package_id: idSchema('errors.package_not_found'),
  /** The price shown, in cents (a price that changed meanwhile is refused, never charged). */
  amount: z.coerce.number<unknown>().int().positive().max(100_000_000).optional(),
  account_holder: required(70, 'errors.account_holder_required'),
  iban: ibanSchema,
  street: required(100, 'errors.street_required'),
  house_number: required(12, 'errors.house_number_required'),
  zip: required(12, 'errors.zip_required'),
  city: required(60, 'errors.city_required'),
  mobile: phoneSchema,
  /** The member authorises the SEPA mandate (the debit from their account). */
  mandate_consent: ticked('errors.mandate_consent_required'),
  /** EU right of withdrawal, as on the credits page. */
  withdrawal_consent: ticked('errors.withdrawal_consent_required'),
});
export type DirectDebitStart = z.output<typeof directDebitStartSchema>;

/** Step 2: the code from the SMS, for the request step 1 made. */
export const directDebitConfirmSchema = z.object({
  request: z.string().refine(isReference, { error: 'errors.sms_code_expired' }),
  code: z.string({ error: 'errors.sms_code_required' }).transform((v) => v.replace(/\s+/g, '')).superRefine((value, ctx) => {
    if (value === '') ctx.addIssue({ code: 'custom', message: 'errors.sms_code_required' });
    else if (!SMS_CODE.test(value)) ctx.addIssue({ code: 'custom', message: 'errors.sms_code_wrong' });
  }),
});
