import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { profiles, regions } from '../db/schema.ts';
import { REGIONS } from './region-list.ts';

/**
 * Brings the `regions` table to the region list of this release (ISO 3166-2, `region-list.ts`): adds the
 * regions it lacks, renames those whose name changed, together with the profiles that carry the old name
 * (profiles store the name, search filters on it), and removes regions that are no longer on the list.
 * Run after migrating and at seeding; running it twice changes nothing.
 */
export async function syncRegions(db: Db): Promise<{ added: number; renamed: number; removed: number }> {
  const wanted = new Map(REGIONS.map((r) => [`${r.country}-${r.code}`, r]));
  const counts = { added: 0, renamed: 0, removed: 0 };
  await db.transaction(async (tx) => {
    const stored = await tx.select().from(regions);
    const have = new Set<string>();
    for (const row of stored) {
      const key = `${row.country}-${row.code}`;
      const region = wanted.get(key);
      if (!region) {
        await tx.delete(regions).where(eq(regions.id, row.id));
        counts.removed++;
        continue;
      }
      have.add(key);
      if (region.name === row.name) continue;
      await tx.update(regions).set({ name: region.name }).where(eq(regions.id, row.id));
      await tx.update(profiles).set({ region: region.name }).where(and(eq(profiles.country, row.country), eq(profiles.region, row.name)));
      counts.renamed++;
    }
    const missing = REGIONS.filter((r) => !have.has(`${r.country}-${r.code}`));
    if (missing.length) await tx.insert(regions).values(missing.map(({ country, code, name }) => ({ country, code, name })));
    counts.added = missing.length;
  });
  return counts;
}
