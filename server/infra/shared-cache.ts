import { and, eq, isNotNull, lte, or, isNull, gt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../db/client.ts';
import { sharedCache } from '../db/schema.ts';
import type { Clock } from './clock.ts';

/**
 * Small JSON values that every instance behind a load balancer must agree on: memos that save
 * work (the search's "1000+") and version stamps that tell instances to drop what they hold
 * (the site cache). Redis when REDIS_URL is set, else the database's shared_cache table; memory
 * only for unit tests. A cache may forget: callers treat a missing value as "not known".
 *
 * Expiry follows the injected clock (as the rate limits do), so TTLs are testable; Redis also
 * gets the TTL so that it forgets the key by itself.
 */
export interface SharedCache {
  get<T = unknown>(key: string): Promise<T | null>;
  /** ttlMs undefined: kept until overwritten or deleted. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Drops expired values (Redis expires its keys by itself). */
  purgeExpired(now: Date): Promise<number>;
}

export function memoryCache(clock: Clock): SharedCache {
  const values = new Map<string, { value: unknown; expiresAt: number | null }>();
  const live = (e: { expiresAt: number | null } | undefined) => e && (e.expiresAt === null || e.expiresAt > clock().getTime());
  return {
    async get<T>(key: string) {
      const e = values.get(key);
      return live(e) ? (structuredClone(e!.value) as T) : null;
    },
    async set(key, value, ttlMs) {
      values.set(key, { value: structuredClone(value), expiresAt: ttlMs === undefined ? null : clock().getTime() + ttlMs });
    },
    async delete(key) {
      values.delete(key);
    },
    async purgeExpired(now) {
      let n = 0;
      for (const [k, e] of values) if (e.expiresAt !== null && e.expiresAt <= now.getTime()) { values.delete(k); n++; }
      return n;
    },
  };
}

/** PostgreSQL or PGlite: one primary-key read or one upsert. */
export function databaseCache(db: Db, clock: Clock): SharedCache {
  return {
    async get<T>(key: string) {
      const now = clock().toISOString();
      const [row] = await db.select({ value: sharedCache.value }).from(sharedCache)
        .where(and(eq(sharedCache.key, key), or(isNull(sharedCache.expiresAt), gt(sharedCache.expiresAt, sql`${now}::timestamptz`))));
      return row ? (row.value as T) : null;
    },
    async set(key, value, ttlMs) {
      const expiresAt = ttlMs === undefined ? null : new Date(clock().getTime() + ttlMs);
      await db.insert(sharedCache).values({ key, value, expiresAt })
        .onConflictDoUpdate({ target: sharedCache.key, set: { value, expiresAt } });
    },
    async delete(key) {
      await db.delete(sharedCache).where(eq(sharedCache.key, key));
    },
    async purgeExpired(now) {
      const gone = await db.delete(sharedCache).where(and(isNotNull(sharedCache.expiresAt), lte(sharedCache.expiresAt, now)))
        .returning({ key: sharedCache.key });
      return gone.length;
    },
  };
}

/** Redis: the value and its expiry (by the caller's clock) as one JSON string; PX lets Redis forget it. */
export function redisCache(redis: Redis, clock: Clock, prefix = 'amora:cache:'): SharedCache {
  return {
    async get<T>(key: string) {
      const text = await redis.get(prefix + key);
      if (text === null) return null;
      const { v, e } = JSON.parse(text) as { v: T; e: number | null };
      return e === null || e > clock().getTime() ? v : null;
    },
    async set(key, value, ttlMs) {
      const e = ttlMs === undefined ? null : clock().getTime() + ttlMs;
      const text = JSON.stringify({ v: value, e });
      if (ttlMs === undefined) await redis.set(prefix + key, text);
      else await redis.set(prefix + key, text, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async delete(key) {
      await redis.del(prefix + key);
    },
    async purgeExpired() {
      return 0;
    },
  };
}
