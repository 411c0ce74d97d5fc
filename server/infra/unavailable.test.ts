import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { isUnavailableError } from './unavailable.ts';

describe('an outside service that is away', () => {
  it('is told from a wrong request or a bug by the error or any of its causes', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isUnavailableError(refused)).toBe(true);
    expect(isUnavailableError(new Error('Failed query: select 1', { cause: refused }))).toBe(true);
    expect(isUnavailableError(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isUnavailableError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe(true);
    expect(isUnavailableError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isUnavailableError(Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' }))).toBe(true);

    expect(isUnavailableError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isUnavailableError(new TypeError('x is undefined'))).toBe(false);
    expect(isUnavailableError(new AppError(400, 'email_invalid'))).toBe(false);
    expect(isUnavailableError(null)).toBe(false);
  });
});
