import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobRuns } from '../db/schema.ts';

/** The hour a run belongs to, e.g. 2026-11-23T07 (UTC). */
export const hourSlot = (at: Date) => at.toISOString().slice(0, 13);

/**
 * Runs a scheduled job once per slot across every instance: the instance whose insert of
 * (job, slot) succeeds runs it; the others see the row and skip. Returns whether this one ran it.
 */
export async function runOncePerSlot(db: Db, job: string, slot: string, now: Date, work: () => Promise<unknown>): Promise<boolean> {
  const won = await db.insert(jobRuns).values({ job, slot, startedAt: now }).onConflictDoNothing().returning({ job: jobRuns.job });
  if (!won.length) return false;
  await work();
  return true;
}

/** Run records older than a week are only history. */
export async function purgeJobRuns(db: Db, now: Date): Promise<void> {
  await db.delete(jobRuns).where(lt(jobRuns.startedAt, new Date(now.getTime() - 7 * 24 * 3_600_000)));
}
