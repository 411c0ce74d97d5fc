import { lte, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import type { Clock } from './clock.ts';

/** One fixed window of a counter: how many hits so far, and when the window ends. */
export interface Window {
  count: number;
  resetAt: Date;
}

/**
 * Where counters live. Every instance behind a load balancer must see the same counts, so the
 * store is Redis (REDIS_URL) or the database's rate_limits table; memory for unit tests and while Redis is away.
 * Time always comes from the caller (the injected clock), never from the store.
 */
export interface RateLimitStore {
  /** Counts one hit atomically; a window that has ended starts again at 1. */
  increment(key: string, windowMs: number, now: Date): Promise<Window>;
  /** The current window, or null when there is none or it has ended. */
  get(key: string, now: Date): Promise<Window | null>;
  delete(key: string): Promise<void>;
  /** Drops ended windows (Redis expires its keys by itself). */
  purgeExpired(now: Date): Promise<number>;
}

export function memoryStore(): RateLimitStore {
  const windows = new Map<string, Window>();
  return {
    async increment(key, windowMs, now) {
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: new Date(now.getTime() + windowMs) };
        windows.set(key, w);
      }
      w.count += 1;
      return { ...w };
    },
    async get(key, now) {
      const w = windows.get(key);
      return w && w.resetAt > now ? { ...w } : null;
    },
    async delete(key) {
      windows.delete(key);
    },
    async purgeExpired(now) {
      let n = 0;
      for (const [k, w] of windows) if (w.resetAt <= now) { windows.delete(k); n++; }
      return n;
    },
  };
}

/** PostgreSQL or PGlite: one atomic upsert per hit, so concurrent instances never lose a count. */
export function databaseStore(db: Db): RateLimitStore {
  return {
    async increment(key, windowMs, now) {
      const resetAt = new Date(now.getTime() + windowMs);
      const [row] = await db.insert(rateLimits).values({ key, count: 1, resetAt })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
      return { count: row.count, resetAt: new Date(row.resetAt) };
    },
    async get(key, now) {
      const [row] = await db.select({ count: rateLimits.count, resetAt: rateLimits.resetAt }).from(rateLimits)
        .where(sql`${rateLimits.key} = ${key}`);
      if (!row || new Date(row.resetAt) <= now) return null;
      return { count: row.count, resetAt: new Date(row.resetAt) };
    },
    async delete(key) {
      await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
    },
    async purgeExpired(now) {
      const gone = await db.delete(rateLimits).where(lte(rateLimits.resetAt, now)).returning({ key: rateLimits.key });
      return gone.length;
    },
  };
}

/*
 * A hash {count, reset} per key, changed in one script so that it is atomic across instances.
 * The window end comes from the caller's clock; the key's TTL only lets Redis forget it later.
 */
const INCREMENT_SCRIPT = `
local reset = tonumber(redis.call('HGET', KEYS[1], 'reset'))
local now = tonumber(ARGV[1])
if (not reset) or reset <= now then
  reset = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'count', 1, 'reset', reset)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tostring(reset)}
end
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
return {count, tostring(reset)}
`;

export function redisStore(redis: Redis, prefix = 'amora:rl:'): RateLimitStore {
  return {
    async increment(key, windowMs, now) {
      const [count, reset] = (await redis.eval(INCREMENT_SCRIPT, 1, prefix + key, String(now.getTime()), String(windowMs))) as [number, string];
      return { count: Number(count), resetAt: new Date(Number(reset)) };
    },
    async get(key, now) {
      const [count, reset] = await redis.hmget(prefix + key, 'count', 'reset');
      if (count === null || reset === null || Number(reset) <= now.getTime()) return null;
      return { count: Number(count), resetAt: new Date(Number(reset)) };
    },
    async delete(key) {
      await redis.del(prefix + key);
    },
    async purgeExpired() {
      return 0;
    },
  };
}

export interface RateLimiter {
  /** Counts one hit; returns the seconds to wait when over the limit, else 0. */
  hit(key: string): Promise<number>;
  /** Without counting: the seconds to wait when the limit is already reached, else 0. */
  blocked(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

/**
 * A fixed-window counter per key (a client IP, a member, an e-mail address). `name` keeps the
 * keys of different limits apart in the shared store.
 */
export function createRateLimiter(options: { name: string; limit: number; windowMs: number; clock: Clock; store: RateLimitStore }): RateLimiter {
  const { name, limit, windowMs, clock, store } = options;
  const full = (key: string) => `${name}:${key}`;
  const wait = (w: Window, now: Date) => Math.max(1, Math.ceil((w.resetAt.getTime() - now.getTime()) / 1000));
  return {
    async hit(key) {
      const now = clock();
      const w = await store.increment(full(key), windowMs, now);
      return w.count > limit ? wait(w, now) : 0;
    },
    async blocked(key) {
      const now = clock();
      const w = await store.get(full(key), now);
      return w && w.count >= limit ? wait(w, now) : 0;
    },
    reset: (key) => store.delete(full(key)),
  };
}
