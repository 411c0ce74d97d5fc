import type { Db } from '../../server/db/client.ts';
import { companies, profiles, sites, users } from '../../server/db/schema.ts';

/**
 * A second site of another company ("Ander", ander.example) with one member of its own: for tests that a site's staff,
 * queues and figures see nothing of another site.
 */
export async function addOtherSite(db: Db): Promise<{ siteId: number; userId: number }> {
  const [company] = await db.insert(companies).values({ name: 'Ander B.V.', address: 'Plein 2', kvk: '11112222', city: 'Delft', country: 'NL' }).returning();
  const [site] = await db.insert(sites).values({ domain: 'ander.example', companyId: company.id, name: 'Ander' }).returning();
  const [member] = await db.insert(users).values({ siteId: site.id, email: 'elsewhere@example.org', passwordHash: 'x', status: 'active' }).returning();
  await db.insert(profiles).values({ userId: member.id, name: 'Elsewhere', gender: 'female', birthDate: '1990-01-01', country: 'NL' });
  return { siteId: site.id, userId: member.id };
}
