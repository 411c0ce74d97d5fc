/** A small levelled logger; tests pass a silent one. */
export interface Logger {
  error(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

const LEVELS = { silent: 0, error: 1, info: 2, debug: 3 } as const;

export function createLogger(level: keyof typeof LEVELS): Logger {
  const n = LEVELS[level];
  return {
    error: (m, ...r) => n >= 1 && console.error(`[error] ${m}`, ...r),
    info: (m, ...r) => n >= 2 && console.log(m, ...r),
    debug: (m, ...r) => n >= 3 && console.log(`[debug] ${m}`, ...r),
  };
}
