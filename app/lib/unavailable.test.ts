import { describe, expect, it } from 'vitest';
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router';
import { unavailableError } from './unavailable.ts';

describe('unavailableError', () => {
  it('reads the server page\'s 503: its message and the visitor\'s language', () => {
    const error = new ErrorResponse(503, 'Service Unavailable', { error: { code: 'unavailable', message: 'Probeer het zo opnieuw.' }, lang: 'nl', i18nVersion: 'abc123' });
    expect(unavailableError(error)).toEqual({ message: 'Probeer het zo opnieuw.', lang: 'nl', i18nVersion: 'abc123' });
  });

  it('reads the JSON text a `.data` request gets from a 503 that is not a page\'s (admission control, the API)', () => {
    const text = JSON.stringify({ error: { code: 'overloaded', message: 'We are very busy right now. Please try again in a moment.' } });
    expect(unavailableError(new ErrorResponse(503, 'Service Unavailable', text))).toEqual({ message: 'We are very busy right now. Please try again in a moment.' });
  });

  it('leaves the message to the page for a 503 without one, and ignores a language it does not know', () => {
    expect(unavailableError(new ErrorResponse(503, 'Service Unavailable', 'upstream gone'))).toEqual({ message: '' });
    expect(unavailableError(new ErrorResponse(503, '', { error: { message: 7 }, lang: 'xx' }))).toEqual({ message: '' });
  });

  it('is null for every other error', () => {
    expect(unavailableError(new ErrorResponse(404, 'Not Found', 'Not Found'))).toBeNull();
    expect(unavailableError(new ErrorResponse(500, 'Internal Server Error', { error: { message: 'x' } }))).toBeNull();
    expect(unavailableError(new Error('Unable to decode turbo-stream response'))).toBeNull();
    expect(unavailableError(undefined)).toBeNull();
  });
});
