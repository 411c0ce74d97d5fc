import { describe, expect, it } from 'vitest';
import { ageOn, isValidIsoDate, safeReturnPath, searchSchema, signupSchema } from './schemas.ts';

describe('shared validation', () => {
  const today = new Date('2026-06-01T00:00:00Z');

  it('computes age on a given day', () => {
    expect(ageOn('2008-06-01', today)).toBe(18);
    expect(ageOn('2008-06-02', today)).toBe(17);
    expect(ageOn('2000-02-29', new Date('2026-02-28T00:00:00Z'))).toBe(25);
  });

  it('recognises real calendar dates only', () => {
    expect(isValidIsoDate('2024-02-29')).toBe(true);
    expect(isValidIsoDate('2023-02-29')).toBe(false);
    expect(isValidIsoDate('01-02-2000')).toBe(false);
  });

  it('reports every broken sign-up rule with its i18n key', () => {
    const r = signupSchema(today).safeParse({ email: 'x', name: '@x', password: 'short', date_of_birth: '', gender: 'robot', country: 'XX' });
    expect(r.success).toBe(false);
    const keys = Object.fromEntries(r.error!.issues.map((i) => [i.path[0], i.message]));
    expect(keys).toMatchObject({
      email: 'errors.email_invalid', password: 'errors.password_too_short', date_of_birth: 'errors.birth_date_required',
      gender: 'errors.gender_required', country: 'errors.country_required',
    });
  });

  it('normalises the e-mail address', () => {
    const r = signupSchema(today).parse({ email: '  Anna@Example.ORG ', name: 'Anna', password: 'long enough', date_of_birth: '1990-01-01', gender: 'female', country: 'NL' });
    expect(r.email).toBe('anna@example.org');
  });

  it('swaps a reversed age range and drops unknown filters', () => {
    expect(searchSchema.parse({ min_age: '40', max_age: '20', gender: 'x' })).toEqual({ min_age: 20, max_age: 40, gender: undefined, country: undefined });
  });

  it('keeps a way back after paying only when it is a path on this site', () => {
    expect(safeReturnPath('/chats/12')).toBe('/chats/12');
    expect(safeReturnPath('/members/3/chat?gift=1')).toBe('/members/3/chat?gift=1');
    for (const away of ['//evil.example/', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', 'chats/1', '', '/a b', '/a\u0000b', `/${'a'.repeat(500)}`, null]) {
      expect(safeReturnPath(away), String(away)).toBeNull();
    }
  });
});
