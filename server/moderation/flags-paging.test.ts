import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAG_KINDS } from '#common/moderation-flags.ts';
import { memberFlags, sites, users } from '../db/schema.ts';
import type { StaffActor } from '../actor.ts';
import { createStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

/** More open flags than three pages of 50 hold, raised out of id order and many at the same moment. */
const MEMBERS = 24;

describe.each(DATABASE_KINDS)('the flags list pages on its own order on %s', (kind) => {
  let t: TestApp;
  let moderator: StaffActor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    moderator = (await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId] })).actor;
    const db = t.database.db;
    const [site] = await db.select().from(sites).where(eq(sites.id, t.siteId));
    const members = await db.insert(users)
      .values(Array.from({ length: MEMBERS }, (_, i) => ({ siteId: site.id, email: `flagged${i}.${kind}@example.org`, passwordHash: 'x', status: 'active' as const })))
      .returning({ id: users.id });
    const start = t.clock().getTime();
    // Ids rise with the member, times go round: later ids are often earlier flags, and every time is shared by several.
    const rows = members.flatMap((m, i) => FLAG_KINDS.map((k, j) => {
      const at = new Date(start - (((i * 7 + j * 11) % 29) * 60_000));
      return { siteId: site.id, userId: m.id, kind: k, evidence: [], firstAt: at, lastAt: at };
    }));
    await db.insert(memberFlags).values(rows);
    // Times finer than a millisecond, which JavaScript's dates cannot carry: the pages must not round them.
    await db.execute(sql`update member_flags set first_at = first_at + interval '3 microseconds' where id % 4 = 0`);
    // A flag already dealt with is not in the list.
    await db.update(memberFlags).set({ resolvedAt: new Date(start) }).where(eq(memberFlags.userId, members[0].id));
  });
  afterAll(() => t.close());

  /** The open flags in the list's order, straight from the table. */
  const listed = async (order: 'oldest' | 'newest') => (await t.database.db.select({ id: memberFlags.id }).from(memberFlags)
    .where(and(isNull(memberFlags.resolvedAt), eq(memberFlags.siteId, t.siteId)))
    .orderBy(...(order === 'oldest' ? [asc(memberFlags.firstAt), asc(memberFlags.id)] : [desc(memberFlags.firstAt), desc(memberFlags.id)]))).map((r) => r.id);

  it.each(['oldest', 'newest'] as const)('sees every open flag once, %s first, going forwards with next and back with previous', async (order) => {
    const expected = await listed(order);
    expect(expected).toHaveLength((MEMBERS - 1) * FLAG_KINDS.length);

    const forwards: number[][] = [];
    let page = await t.services.console.flags(moderator, { order });
    expect(page.prev).toBeNull();
    forwards.push(page.flags.map((f) => f.id));
    while (page.next !== null) {
      page = await t.services.console.flags(moderator, { order, after: page.next });
      expect(page.prev).toBe(page.flags[0].id);
      forwards.push(page.flags.map((f) => f.id));
    }
    expect(forwards.map((p) => p.length)).toEqual([50, 50, 15]);
    expect(forwards.flat()).toEqual(expected);

    const backwards: number[][] = [forwards.at(-1)!];
    while (page.prev !== null) {
      page = await t.services.console.flags(moderator, { order, before: page.prev });
      expect(page.next).toBe(page.flags.at(-1)!.id);
      backwards.unshift(page.flags.map((f) => f.id));
    }
    expect(backwards).toEqual(forwards);
  });

  it('keeps its place when a flag is dealt with between two pages: the rest follow, none twice', async () => {
    const expected = await listed('oldest');
    const first = await t.services.console.flags(moderator, {});
    // Resolved while the moderator reads the first page: it leaves the list, and the second page starts after it all the same.
    await t.database.db.update(memberFlags).set({ resolvedAt: t.clock() }).where(eq(memberFlags.id, first.flags.at(-1)!.id));
    const second = await t.services.console.flags(moderator, { after: first.next! });
    expect(second.flags.map((f) => f.id)).toEqual(expected.slice(50, 100));
    await t.database.db.update(memberFlags).set({ resolvedAt: null }).where(eq(memberFlags.id, first.flags.at(-1)!.id));
  });
});
