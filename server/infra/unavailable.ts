import { AppError } from './errors.ts';

/** What a 503 for a missing service tells clients to wait, in seconds: the pool retries at once, so a second is enough. */
const UNAVAILABLE_RETRY_AFTER_S = 2;

/** A service the request needs (the database, the photo store) did not answer: 503, to be retried. */
export const serviceUnavailable = () => new AppError(503, 'unavailable', { retry_after: UNAVAILABLE_RETRY_AFTER_S });

/** System errors of a connection, and nodemailer's codes for a connection that failed or closed (ESOCKET, ECONNECTION). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ESOCKET', 'ECONNECTION']);
/** PostgreSQL's SQLSTATEs of a lost or refused connection (class 08), a shutdown (57P01–57P03) and a statement timeout (57014). */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|57014)$/;
/** What pg and pg-pool say when a connection cannot be made or its answer does not come. */
const DRIVER_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|connection error and is not queryable|Connection ended unexpectedly/i;

/**
 * Whether an error means that an outside service is away rather than that the request or the code is wrong: the
 * network refused or timed out, PostgreSQL dropped the connection or cancelled a statement at its timeout. Drivers
 * and the ORM wrap errors, so the causes are followed too.
 */
export function isUnavailableError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some(isUnavailableError)) return true;
  }
  return false;
}

/** The innermost cause's message (the driver's, not the ORM's wrapping with the whole query), for the log. */
export function unavailableReason(error: unknown): string {
  let e = error;
  for (let depth = 0; depth < 5 && (e as { cause?: unknown } | null)?.cause; depth += 1) e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
