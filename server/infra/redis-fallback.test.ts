import { describe, expect, it } from 'vitest';
import { REDIS_RETRY_AFTER_MS, withFallback } from './redis-fallback.ts';
import { memoryStore, type RateLimitStore } from './rate-limit.ts';

describe('Redis with a fallback', () => {
  it('uses the fallback from the first failure on, asks Redis again after a pause, and goes back to it once it answers', async () => {
    let now = 0;
    let redisUp = true;
    let redisCalls = 0;
    const redis = memoryStore();
    const flaky: RateLimitStore = {
      ...redis,
      increment: async (...args) => {
        redisCalls += 1;
        if (!redisUp) throw new Error('Connection is closed.');
        return redis.increment(...args);
      },
    };
    const logged: string[] = [];
    const store = withFallback('rate limits', flaky, memoryStore(), { logger: { error: (m) => logged.push(m), info: (m) => logged.push(m) }, now: () => now });
    const at = new Date(0);
    expect((await store.increment('k', 60_000, at)).count).toBe(1);
    redisUp = false;
    // Counted in memory, from 1: no error reaches the caller.
    expect((await store.increment('k', 60_000, at)).count).toBe(1);
    expect((await store.increment('k', 60_000, at)).count).toBe(2);
    // Only the first failing call went to Redis.
    expect(redisCalls).toBe(2);
    redisUp = true;
    now += REDIS_RETRY_AFTER_MS + 1;
    expect((await store.increment('k', 60_000, at)).count).toBe(2);
    expect(logged).toEqual([expect.stringContaining('falls back'), expect.stringContaining('answers again')]);
  });
});
