import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** A readiness check that takes longer than this counts as failed: an orchestrator's probe waits a few seconds at most. */
const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessDeps {
  db: Db;
  /** Redis, when configured: reported, but the instance falls back to its own limits and polling without it. */
  redis?: { ping(): Promise<string> };
}

/** Whether this instance should get traffic: its database answers and it is not shutting down (Redis is reported, not required). */
export function createReadiness(deps: ReadinessDeps) {
  let shuttingDown = false;

  async function probe(run: () => Promise<unknown>): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS); });
    try {
      await Promise.race([run(), timeUp]);
      return 'ok';
    } catch (error) {
      return `failing: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** From the shutdown signal on, the load balancer is told to send nothing new here. */
    markShuttingDown() {
      shuttingDown = true;
    },
    async check(): Promise<{ ready: boolean; checks: Record<string, string> }> {
      const [database, redis] = await Promise.all([
        probe(() => deps.db.execute(sql`select 1`)),
        deps.redis ? probe(() => deps.redis!.ping()) : Promise.resolve(undefined),
      ]);
      // Without Redis the instance still serves everything (limits per instance, live events by polling): it is
      // named as degraded, and the load balancer keeps sending traffic.
      const checks: Record<string, string> = {
        database, ...(redis ? { redis: redis.replace(/^failing:/, 'degraded:') } : {}), shutdown: shuttingDown ? 'failing: shutting down' : 'ok',
      };
      return { ready: Object.values(checks).every((v) => !v.startsWith('failing')), checks };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
