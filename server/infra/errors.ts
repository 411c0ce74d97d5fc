import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * A rule the request broke. `code` is stable for clients; the message is the i18n key
 * `errors.<code>` translated at the HTTP edge into the member's language.
 */
const BRAND = Symbol.for('amora.AppError');

export class AppError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly params: Record<string, string | number> = {},
    readonly details: Record<string, string> = {},
  ) {
    super(code);
  }
}

export const notFound = () => new AppError(404, 'not_found');
export const authenticationRequired = () => new AppError(403, 'authentication_required');

/**
 * The page bundle and the HTTP server bundle each have their own copy of this module, so
 * `instanceof` cannot tell an AppError thrown by the other; the global symbol can.
 */
export function isAppError(error: unknown): error is AppError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
