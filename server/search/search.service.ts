import { and, desc, eq, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ProfileSummary } from '#common/api-types.ts';
import { SEARCH_PAGE_SIZE } from '#common/constants.ts';
import type { SearchInput } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import { photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Birth dates of people aged min..max on `today`: born after (today - max - 1 years) and on or before (today - min years). */
export function birthDateRange(today: Date, minAge: number, maxAge: number) {
  const latest = new Date(Date.UTC(today.getUTCFullYear() - minAge, today.getUTCMonth(), today.getUTCDate()));
  const earliestExclusive = new Date(Date.UTC(today.getUTCFullYear() - maxAge - 1, today.getUTCMonth(), today.getUTCDate()));
  return { after: isoDate(earliestExclusive), onOrBefore: isoDate(latest) };
}

function encodeCursor(createdAt: Date, id: number) {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; id: number } | null {
  if (!cursor) return null;
  const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(iso);
  const n = Number(id);
  return Number.isNaN(createdAt.getTime()) || !Number.isInteger(n) ? null : { createdAt, id: n };
}

export interface SearchPage {
  profiles: ProfileSummary[];
  numResults: number | null;
  next_cursor: string | null;
}

export function createSearchService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    /** Newest members first, keyset-paged. numResults is counted on the first page only. */
    async search(viewerId: number | null, input: SearchInput): Promise<SearchPage> {
      const today = clock();
      const range = birthDateRange(today, input.min_age, input.max_age);
      const filters: SQL[] = [
        eq(profiles.status, 'active'),
        ne(users.status, 'deleted'),
        sql`${profiles.birthDate} > ${range.after}`,
        sql`${profiles.birthDate} <= ${range.onOrBefore}`,
      ];
      if (viewerId) filters.push(ne(profiles.userId, viewerId));
      if (input.gender) filters.push(eq(profiles.gender, input.gender));
      if (input.country) filters.push(eq(profiles.country, input.country));
      const cursor = decodeCursor(input.cursor);
      const where = and(...filters);
      const pageWhere = cursor
        ? and(where, or(lt(profiles.createdAt, cursor.createdAt), and(eq(profiles.createdAt, cursor.createdAt), lt(profiles.userId, cursor.id))))
        : where;
      const rows = await db
        .select({ ...profileColumns, createdAt: profiles.createdAt })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
        .where(pageWhere)
        .orderBy(desc(profiles.createdAt), desc(profiles.userId))
        .limit(SEARCH_PAGE_SIZE + 1);
      const page = rows.slice(0, SEARCH_PAGE_SIZE);
      const last = page.at(-1);
      let numResults: number | null = null;
      if (!cursor) {
        const [{ n }] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(profiles)
          .innerJoin(users, eq(users.id, profiles.userId))
          .where(where);
        numResults = n;
      }
      return {
        profiles: page.map((r) => toProfileSummary(r as ProfileRow, today)),
        numResults,
        next_cursor: rows.length > SEARCH_PAGE_SIZE && last ? encodeCursor(last.createdAt, last.id) : null,
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
