import { sql } from 'drizzle-orm';
import type { SignupLander } from '#common/landers.ts';
import type { Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { landerVisits } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';

/** Crawlers, link previews and scripts announce themselves: their page views are no visits of a campaign's audience. */
const BOT_AGENT = /bot\b|bot\/|crawl|spider|slurp|archiver|preview|facebookexternalhit|embedly|lighthouse|pagespeed|curl\/|wget\/|python|java\/|go-http|okhttp|axios|node-fetch|httpclient|libwww|scrapy|headless/i;

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT_AGENT.test(userAgent);
}

/** A visitor seen on a lander is not counted again on it for this long (the cookie that remembers them lives as long). */
export const LANDER_VISIT_WINDOW_SECONDS = 30 * 60;

/** Visits to landers and to members' landing pages, per site, lander and day (UTC), for the reports dashboard. */
export function createLanderVisits(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * Counts a visitor's view of `lander` on their site, unless it comes from a bot or the visitor was counted on this
     * lander within the window (`seen`, from their cookie). Members are not visitors: nothing. True when it counted.
     */
    async count(actor: Actor, input: { lander: SignupLander; userAgent: string | undefined; seen: readonly string[] }): Promise<boolean> {
      if (actor.kind !== 'visitor' || isBot(input.userAgent) || input.seen.includes(input.lander)) return false;
      const day = clock().toISOString().slice(0, 10);
      await db.insert(landerVisits).values({ siteId: actor.siteId, lander: input.lander, day, visits: 1 })
        .onConflictDoUpdate({ target: [landerVisits.siteId, landerVisits.day, landerVisits.lander], set: { visits: sql`${landerVisits.visits} + 1` } });
      return true;
    },
  };
}
