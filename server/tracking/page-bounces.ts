import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import { requireRole, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { pageBounces } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';

/** Page-bounce logging (`?lb`): visitors' stays on a page, for the operator's landing-page work. */
export function createPageBounces(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async record(siteId: number, input: { path: string; seconds: number }, tracking: { network?: string | null; ref?: string | null } = {}) {
      await db.insert(pageBounces).values({
        siteId, path: input.path, seconds: input.seconds,
        network: tracking.network ?? null, ref: tracking.ref ?? null, createdAt: clock(),
      });
    },

    /** The last 7 days of a site: per path the visits and the median stay, and the newest records. For the site's admins. */
    async report(actor: Actor, siteId: number) {
      requireRole(actor, 'admin', siteId);
      const since = new Date(clock().getTime() - 7 * 24 * 3_600_000);
      const where = and(eq(pageBounces.siteId, siteId), gte(pageBounces.createdAt, since));
      const paths = await db.select({
        path: pageBounces.path,
        visits: count(),
        median_seconds: sql<number>`percentile_cont(0.5) within group (order by ${pageBounces.seconds})`.mapWith(Number),
      }).from(pageBounces).where(where).groupBy(pageBounces.path).orderBy(desc(count()));
      const latest = await db.select({
        path: pageBounces.path, seconds: pageBounces.seconds, network: pageBounces.network, ref: pageBounces.ref, created_at: pageBounces.createdAt,
      }).from(pageBounces).where(where).orderBy(desc(pageBounces.id)).limit(100);
      return { paths, latest };
    },
  };
}
