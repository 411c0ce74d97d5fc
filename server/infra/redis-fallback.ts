import type { Logger } from './logger.ts';

/** After Redis failed, how long this instance uses its own fallback before it asks Redis again. */
export const REDIS_RETRY_AFTER_MS = 5_000;

type AsyncMethods<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never };

/**
 * `primary` (on Redis) while it answers; `fallback` (this instance's memory) from its first failure on, for a few
 * seconds at a time, so that a Redis outage costs each request nothing more than a lookup in memory: rate limits then
 * count per instance and cached values are this instance's own, and no request fails for it (docs/operations.md).
 */
export function withFallback<T extends AsyncMethods<T>>(
  name: string, primary: T, fallback: T, deps: { logger: Pick<Logger, 'error' | 'info'>; now?: () => number },
): T {
  const now = deps.now ?? Date.now;
  let downUntil = 0;
  const wrapped = {} as T;
  for (const key of Object.keys(fallback) as (keyof T)[]) {
    const method = key as keyof T & string;
    wrapped[key] = (async (...args: unknown[]) => {
      const call = (target: T) => (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      if (now() < downUntil) return call(fallback);
      try {
        const result = await call(primary);
        if (downUntil) {
          downUntil = 0;
          deps.logger.info(`${name}: Redis answers again`);
        }
        return result;
      } catch (error) {
        if (!downUntil) deps.logger.error(`${name}: Redis failed, this instance falls back to its own memory:`, error instanceof Error ? error.message : error);
        downUntil = now() + REDIS_RETRY_AFTER_MS;
        return call(fallback);
      }
    }) as T[keyof T];
  }
  return wrapped;
}
