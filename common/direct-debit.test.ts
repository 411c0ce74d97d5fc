import { describe, expect, it } from 'vitest';
import { directDebitConfirmSchema, directDebitStartSchema, isSepaIban, maskPhone, normaliseIban, normalisePhone } from './direct-debit.ts';

const valid = {
  package_id: 1, account_holder: 'Jan Jansen', iban: 'NL91ABNA0417164300', street: 'Damrak', house_number: '1a', zip: '1012 LG', city: 'Amsterdam',
  mobile: '+31612345678', mandate_consent: true, withdrawal_consent: true,
};
const issues = (input: Record<string, unknown>) => {
  const r = directDebitStartSchema.safeParse({ ...valid, ...input });
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('direct debit input', () => {
  it('normalises an IBAN and accepts only valid ones of SEPA countries', () => {
    expect(normaliseIban(' nl91 abna 0417 1643 00 ')).toBe('NL91ABNA0417164300');
    expect(isSepaIban('NL91ABNA0417164300')).toBe(true);
    expect(isSepaIban('DE89370400440532013000')).toBe(true);
    expect(isSepaIban('CH9300762011623852957')).toBe(true);
    // Wrong check digits, and a valid IBAN of a country outside SEPA (Brazil).
    expect(isSepaIban('NL92ABNA0417164300')).toBe(false);
    expect(isSepaIban('BR1800360305000010009795493C1')).toBe(false);
    expect(directDebitStartSchema.parse({ ...valid, iban: 'de89 3704 0044 0532 0130 00' }).iban).toBe('DE89370400440532013000');
    expect(issues({ iban: 'NL92ABNA0417164300' })).toEqual({ iban: 'errors.iban_invalid' });
    expect(issues({ iban: 'BR1800360305000010009795493C1' })).toEqual({ iban: 'errors.iban_not_sepa' });
    expect(issues({ iban: '' })).toEqual({ iban: 'errors.iban_required' });
    expect(issues({ iban: 'X'.repeat(5000) })).toEqual({ iban: 'errors.iban_invalid' });
    expect(issues({ iban: 42 })).toEqual({ iban: 'errors.iban_invalid' });
  });

  it('normalises an international mobile number and refuses local or malformed ones', () => {
    expect(normalisePhone('+31 6 1234-5678')).toBe('+31612345678');
    expect(normalisePhone('0031 (6) 12345678')).toBe('+31612345678');
    expect(normalisePhone('0612345678')).toBeNull();
    expect(normalisePhone('+31 6 12')).toBeNull();
    expect(normalisePhone('+31 6 1234 5678 9999 99')).toBeNull();
    expect(maskPhone('+31612345678')).toBe('+31\u00a0••••\u00a05678');
    expect(issues({ mobile: '06 12345678' })).toEqual({ mobile: 'errors.phone_invalid' });
    expect(issues({ mobile: '' })).toEqual({ mobile: 'errors.phone_required' });
  });

  it('requires the address, the holder and both consents, and refuses control characters', () => {
    expect(issues({ account_holder: ' ', street: '', house_number: '', zip: '', city: '', mandate_consent: false, withdrawal_consent: undefined })).toEqual({
      account_holder: 'errors.account_holder_required', street: 'errors.street_required', house_number: 'errors.house_number_required',
      zip: 'errors.zip_required', city: 'errors.city_required', mandate_consent: 'errors.mandate_consent_required',
      withdrawal_consent: 'errors.withdrawal_consent_required',
    });
    expect(issues({ city: 'Amster\u0000dam' })).toEqual({ city: 'errors.text_invalid_characters' });
    expect(issues({ street: 'x'.repeat(101) })).toEqual({ street: 'errors.field_too_long' });
    expect(issues({ package_id: 99999999999 })).toEqual({ package_id: 'errors.package_not_found' });
  });

  it('takes a 6-digit code, spaces allowed', () => {
    expect(directDebitConfirmSchema.parse({ request: 'dd_abc', code: '123 456' }).code).toBe('123456');
    expect(directDebitConfirmSchema.safeParse({ request: 'dd_abc', code: '12345' }).success).toBe(false);
    expect(directDebitConfirmSchema.safeParse({ request: '../etc', code: '123456' }).success).toBe(false);
  });
});
