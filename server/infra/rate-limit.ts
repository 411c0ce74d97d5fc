import type { Clock } from './clock.ts';

/**
 * A fixed-window counter per key (usually the client IP). Kept in process memory: with several
 * instances each enforces its own share, which still bounds abuse.
 */
export function createRateLimiter(options: { limit: number; windowMs: number; clock: Clock }) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Counts one hit; returns the seconds to wait when over the limit, else 0. */
    hit(key: string): number {
      const now = options.clock().getTime();
      let w = windows.get(key);
      if (!w || now - w.start >= options.windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
        if (windows.size > 50_000) {
          for (const [k, v] of windows) if (now - v.start >= options.windowMs) windows.delete(k);
        }
      }
      w.count += 1;
      return w.count > options.limit ? Math.ceil((w.start + options.windowMs - now) / 1000) : 0;
    },
    reset(key: string) {
      windows.delete(key);
    },
  };
}
