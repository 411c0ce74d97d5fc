import { pino, type DestinationStream } from 'pino';

/** What one answered request leaves in the log. */
export interface RequestLog {
  reqId: string;
  method: string;
  /** The path without its query string: tokens travel in query strings (activation, unsubscribe links). */
  path: string;
  status: number;
  ms: number;
  site?: string;
  userId?: number | null;
}

/** A levelled JSON logger (pino); tests pass a silent one. */
export interface Logger {
  error(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
  request(fields: RequestLog): void;
}

export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

/** Field names whose values never reach a log line, wherever a caller puts them. */
const SECRET_FIELDS = ['password', 'token', 'cookie', 'authorization', 'secret', 'idempotencyKey'];
const REDACT = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);

/**
 * JSON lines on stdout (or the given stream): `level`, `time`, `msg` and the fields. Extra
 * arguments are kept as pino keeps them: an Error becomes `err` (with its stack), an object
 * adds its fields, anything else is appended to the message.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const log = pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT, censor: '[redacted]' },
  }, destination);

  const at = (method: 'error' | 'info' | 'debug') => (message: string, ...rest: unknown[]) => {
    if (!log.isLevelEnabled(method)) return;
    const fields: Record<string, unknown> = {};
    const words: unknown[] = [];
    for (const value of rest) {
      if (value instanceof Error) fields.err = value;
      else if (value && typeof value === 'object') Object.assign(fields, value);
      else words.push(value);
    }
    log[method](fields, words.length ? [message, ...words].join(' ') : message);
  };

  return {
    error: at('error'),
    info: at('info'),
    debug: at('debug'),
    request: (fields) => {
      // Server errors are logged as errors by the error handler already; the request line says what was answered.
      if (log.isLevelEnabled('info')) log.info(fields, 'request');
    },
  };
}
