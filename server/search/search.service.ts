import type { Geo } from '../geo/geo.ts';
import { and, eq, not, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ProfileSummary } from '#common/api-types.ts';
import { MAX_AGE, MIN_AGE, SEARCH_COUNT_CAP, SEARCH_PAGE_SIZE, SIMILAR_RESULTS_THRESHOLD, type Gender } from '#common/constants.ts';
import { toId } from '#common/input.ts';
import { distanceUnit, filterRadiusKm, roundDistance, type DistanceFilter, type DistanceUnit } from '#common/distance.ts';
import type { SearchInput } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import { boundValues, inline, type Values } from '../db/values.ts';
import { photos, profiles, sites, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { SharedCache } from '../infra/shared-cache.ts';
import { lastActiveOfJoinedUser, profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';
import { fictionalCondition, hidesFictional, listedFor, type ContactRules } from '../accounts/contact-rules.ts';
import { requireMember, type Actor } from '../actor.ts';
import type { Site } from '../settings/settings.service.ts';
import { createSearchRules } from './search-rules.ts';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Birth dates of people aged min..max on `today`: born after (today - max - 1 years) and on or before (today - min years). */
export function birthDateRange(today: Date, minAge: number, maxAge: number) {
  const latest = new Date(Date.UTC(today.getUTCFullYear() - minAge, today.getUTCMonth(), today.getUTCDate()));
  const earliestExclusive = new Date(Date.UTC(today.getUTCFullYear() - maxAge - 1, today.getUTCMonth(), today.getUTCDate()));
  return { after: isoDate(earliestExclusive), onOrBefore: isoDate(latest) };
}

/**
 * The cursor carries created_at to the microsecond, as PostgreSQL stores it: a JavaScript Date keeps only
 * milliseconds, and members created within the same millisecond would be skipped.
 */
function encodeCursor(createdAt: string, id: number) {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** A cursor the search did not issue (edited, truncated, made up) is refused: the database would choke on it. */
function decodeCursor(cursor: string | undefined): { createdAt: string; id: number } | null {
  if (!cursor) return null;
  const invalid = () => new AppError(400, 'invalid_input', {}, { cursor: 'errors.invalid_input' });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const parts = Buffer.from(cursor, 'base64url').toString().split('|');
  const [createdAt, idText] = parts;
  const id = toId(idText);
  if (parts.length !== 2 || id === null || !TIMESTAMP_TEXT.test(createdAt)) throw invalid();
  // A real calendar moment in a year PostgreSQL and JavaScript agree on (no 30 February, no year 0).
  const parsed = new Date(createdAt);
  const year = Number(createdAt.slice(0, 4));
  if (Number.isNaN(parsed.getTime()) || year < 1900 || parsed.toISOString().slice(0, 19) !== createdAt.slice(0, 19)) throw invalid();
  return { createdAt, id };
}

/** The filters one query runs with; similar results use a relaxed copy. */
export interface SearchFilters {
  gender?: 'male' | 'female';
  country?: string;
  countryregion?: string;
  min_age: number;
  max_age: number;
  /** Within this distance of the searching member (who shared a location); members who shared none do not match. */
  distance?: DistanceFilter;
}

/** Where the searching member is (their shared town) and the unit they read distances in. */
export interface Origin { lat: number; lon: number; unit: DistanceUnit }

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE_LATITUDE = (Math.PI * EARTH_RADIUS_KM) / 180;

/**
 * The great-circle distance (haversine) from the origin to a member's shared place, in km; null when they shared none.
 * least(1, …) keeps rounding from taking asin out of its domain for antipodes.
 */
function distanceKmSql(origin: Origin, v: Values): SQL<number | null> {
  const lat = v('origin_lat', origin.lat);
  const lon = v('origin_lon', origin.lon);
  // least() skips nulls (least(1, null) is 1): the case keeps a member without a place at null, not half the earth away.
  return sql<number | null>`(case when ${profiles.latitude} is not null and ${profiles.longitude} is not null then ${2 * EARTH_RADIUS_KM} * asin(least(1, sqrt(
    power(sin(radians(${profiles.latitude} - ${lat}::float8) / 2), 2)
    + cos(radians(${lat}::float8)) * cos(radians(${profiles.latitude})) * power(sin(radians(${profiles.longitude} - ${lon}::float8) / 2), 2)))) end)`;
}

/**
 * Members within `km` of the origin. A bounding box first (latitude, and longitude where the box neither reaches a pole
 * nor crosses the date line), which the index `profiles_search_located` (migration 0045) checks inside the index
 * while it walks the page's order, then the exact distance.
 */
function withinSql(origin: Origin, km: number, v: Values): SQL {
  const dLat = km / KM_PER_DEGREE_LATITUDE;
  const parts: SQL[] = [
    sql`${profiles.latitude} is not null`, sql`${profiles.longitude} is not null`,
    sql`${profiles.latitude} between ${v('lat_min', origin.lat - dLat)}::float8 and ${v('lat_max', origin.lat + dLat)}::float8`,
  ];
  const cosLat = Math.cos((Math.abs(origin.lat) + dLat) * (Math.PI / 180));
  if (Math.abs(origin.lat) + dLat < 89 && cosLat > 0) {
    const dLon = km / (KM_PER_DEGREE_LATITUDE * cosLat);
    if (origin.lon - dLon >= -180 && origin.lon + dLon <= 180) {
      parts.push(sql`${profiles.longitude} between ${v('lon_min', origin.lon - dLon)}::float8 and ${v('lon_max', origin.lon + dLon)}::float8`);
    }
  }
  parts.push(sql`${distanceKmSql(origin, v)} <= ${v('km', km)}::float8`);
  return and(...parts)!;
}

/** A distance filter from a member who shared no location: refused, as the form never offers it to them. */
const locationRequired = () => new AppError(400, 'location_required', {}, { distance: 'errors.location_required' });

/**
 * Relaxation steps for similar results, tried in order when few members match, each relaxing what its heading says
 * and nothing else: 1 a wider age range ("With a wider age range"), 2 any region ("Also from other regions"), 3 any
 * country ("Also from other countries"). Levels 2 and 3 keep the member's ages; the gender is their wish and stays.
 */
export const SIMILAR_LEVELS = [1, 2, 3] as const;
export type SimilarLevel = (typeof SIMILAR_LEVELS)[number];

export function relaxFilters(f: SearchFilters, level: SimilarLevel): SearchFilters {
  const widen = level === 1 ? 10 : 0;
  return {
    gender: f.gender,
    min_age: Math.max(MIN_AGE, f.min_age - widen),
    max_age: Math.min(MAX_AGE, f.max_age + widen),
    country: level >= 3 ? undefined : f.country,
    countryregion: level >= 2 ? undefined : f.countryregion,
    // Farther away is what "also from other regions" means: the distance goes with the region.
    distance: level >= 2 ? undefined : f.distance,
  };
}

/**
 * What a search needs of the searching member (none for visitors): the condition fictional profiles must meet for them
 * (contact-rules' fictionalCondition), their shared place and unit (common/distance.ts; null when they shared none), and
 * who they look for (their gender and sexuality, for a first search's starting point).
 */
export interface Searcher {
  fictional: SQL | undefined;
  origin: Origin | null;
  gender: Gender | null;
  sexuality: string | null;
}

export interface SearchOptions {
  /** The site's shop window for visitors (landers, home and sign-up pages): see `visibility`. */
  shopWindow?: boolean;
  /** The searching member's facts when the caller read them already (searcher()); else read here. */
  searcher?: Searcher;
}

export interface SearchPage {
  profiles: ProfileSummary[];
  /** Counted on the first page only; capped at SEARCH_COUNT_CAP (then numResults_capped is true). */
  numResults: number | null;
  numResults_capped: boolean;
  next_cursor: string | null;
}

export interface SimilarResults {
  level: SimilarLevel;
  filters: SearchFilters;
  profiles: ProfileSummary[];
  next_cursor: string | null;
}

export interface SearchResult extends SearchPage {
  similar_results: SimilarResults | null;
  similar_numResults: number | null;
  /** The searching member's unit when they shared a location (the cards then carry distances); null otherwise. */
  distance_unit: DistanceUnit | null;
}

/** How long a count above the cap is trusted, per filter combination. */
export const BROAD_FOR_MS = 60_000;
/**
 * How long an instance keeps what it learnt of a filter combination's count before it asks the shared memo again: a
 * broad search's first page then costs no statement for the memo ("1000+" is at most this much older than the shared
 * memo's), and a narrow one's only its exact count (the memo would only ever tell it what counting tells).
 */
const KNOWN_COUNT_MS = 10_000;
/** The most filter combinations an instance keeps (then it starts afresh): a bound on its memory, not a tuning knob. */
const KNOWN_COUNT_MAX = 1_000;

/** The shared-cache key of one filter combination's "more than the cap". */
export function broadFilterKey(
  f: SearchFilters, siteId: number | null, fictionalHidden = false, shopWindow = false, origin: { lat: number; lon: number } | null = null,
): string {
  // A fixed field order, so that equal filters give one key whichever way the input was built. Per site: each site
  // searches the members of the sites it meets (decision 051); and apart for members who hide fictional profiles, and
  // for the shop window (which shows fewer). A distance counts from the searching member's shared place, which is a
  // town's: the members of one town share the memo.
  const near = f.distance && origin ? [f.distance, origin.lat, origin.lon] : null;
  return `search:broad:${siteId ?? ''}:${fictionalHidden ? 'nf:' : ''}${shopWindow ? 'sw:' : ''}${JSON.stringify([f.gender ?? null, f.country ?? null, f.countryregion ?? null, f.min_age, f.max_age, ...(near ? [near] : [])])}`;
}

export function createSearchService(deps: {
  db: Db; clock: Clock; memo: SharedCache; contactRules: Pick<ContactRules, 'pool'>;
  /** The actor's site: whether visitors may search, the filters it offers, its niche and countries. */
  site: (siteId: number) => Promise<Site>;
  /** The town nearest a shared position: what is kept of it (geo/geo.ts). */
  nearestPlace: Geo['nearestPlace'];
}) {
  const { db, clock, memo } = deps;

  /** What a member must match, apart from visibility. */
  function matchPredicate(f: SearchFilters, today: Date, origin: Origin | null, v: Values = inline): SQL {
    const range = birthDateRange(today, f.min_age, f.max_age);
    const parts: SQL[] = [sql`${profiles.birthDate} > ${v('born_after', range.after)}`, sql`${profiles.birthDate} <= ${v('born_by', range.onOrBefore)}`];
    if (f.gender) parts.push(sql`${profiles.gender} = ${v('gender', f.gender)}`);
    if (f.country) parts.push(sql`${profiles.country} = ${v('country', f.country)}`);
    if (f.country && f.countryregion) parts.push(sql`${profiles.region} = ${v('region', f.countryregion)}`);
    if (f.distance) {
      if (!origin) throw locationRequired();
      parts.push(withinSql(origin, filterRadiusKm(f.distance), v));
    }
    return and(...parts)!;
  }

  /**
   * Who may appear at all: the rule every list of members shares (contact-rules' listedFor), with the sites the actor's
   * meets. The site's shop window (landers, the home and sign-up pages a visitor sees, decision 076) shows a visitor
   * fewer: members whose main photo a moderator approved and whose profile is older than the site's visitorNewMemberDays.
   */
  const visibility = async (actor: Actor, fictional: SQL | undefined, shopWindow = false, v: Values = inline) => {
    const listed = listedFor(actor, await deps.contactRules.pool(actor), clock(), v);
    if (fictional) v.mark('hide fictional');
    const parts = [listed, fictional];
    const window = shopWindow && actor.kind === 'visitor';
    if (window) parts.push(await visitorsMay(actor.siteId, v));
    return { where: and(...parts)!, fictionalHidden: fictional !== undefined, shopWindow: window };
  };

  async function visitorsMay(siteId: number, v: Values): Promise<SQL> {
    const { visitorNewMemberDays } = await deps.site(siteId);
    const joinedBy = new Date(clock().getTime() - visitorNewMemberDays * 86_400_000);
    return and(
      sql`${profiles.createdAt} <= ${v('joined_by', joinedBy.toISOString())}::timestamptz`,
      sql`exists (select 1 from ${photos} where ${photos.id} = ${profiles.mainPhotoId} and ${photos.status} = 'active' and ${photos.reviewed})`,
    )!;
  }

  // What the search needs of the searching member, in one statement (Searcher).
  const searcherQuery = db
    .select({
      hideFictional: hidesFictional, lat: profiles.latitude, lon: profiles.longitude, country: profiles.country, language: users.language,
      gender: profiles.gender, sexuality: profiles.sexuality,
    })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('search_searcher');

  /** The actor's Searcher. Others' places are only ever used inside the query, never selected. */
  async function searcherOf(actor: Actor): Promise<Searcher> {
    if (actor.kind !== 'member') return { fictional: undefined, origin: null, gender: null, sexuality: null };
    const [me] = await searcherQuery.execute({ userId: actor.userId });
    const origin = me && me.lat !== null && me.lon !== null ? { lat: me.lat, lon: me.lon, unit: distanceUnit(me.language, me.country) } : null;
    return { fictional: fictionalCondition(Boolean(me?.hideFictional)), origin, gender: me?.gender ?? null, sexuality: me?.sexuality ?? null };
  }

  /** A page of members; `withCount`: each row also carries the capped count of all matches (countQuery). */
  function pageQuery(where: SQL, cursorText: string | undefined, origin: Origin | null, withCount = false, v: Values = inline) {
    const cursor = decodeCursor(cursorText);
    const pageWhere = cursor
      ? and(where, sql`(${profiles.createdAt}, ${profiles.userId}) < (${v('cursor_at', cursor.createdAt)}::timestamptz, ${v('cursor_id', cursor.id)})`)
      : where;
    return db
      .select({
        ...profileColumns,
        // The statement joins the member's users row already: no subquery per row for it.
        lastActiveAt: lastActiveOfJoinedUser,
        createdAt: sql<string>`to_char(${profiles.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
        // Only the distance leaves the database: the member's coordinates are not selected.
        distanceKm: origin ? distanceKmSql(origin, v) : sql<number | null>`null::float8`,
        // A first page that must count counts in the same statement: one round trip less, planned together.
        matches: withCount ? sql<number>`(${countQuery(where)})` : sql<number | null>`null::int`,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
      .where(pageWhere)
      // NULLS LAST as in the indexes, so that they deliver the order and the scan stops after one page.
      .orderBy(sql`${profiles.createdAt} desc nulls last`, sql`${profiles.userId} desc nulls last`)
      .limit(SEARCH_PAGE_SIZE + 1);
  }
  type PageRows = Awaited<ReturnType<typeof pageQuery>>;

  /**
   * The page statements of the searches, compiled once per shape (which filters, a cursor, a count, a place, hidden
   * fictional profiles…: the placeholders' names) and executed with each search's values: building a statement's text
   * was a third of a search's time on the server. Unnamed, as drizzle runs any select: PostgreSQL still plans each
   * execution with its values (a generic plan would walk a whole index for a rare filter).
   */
  const compiledPages = new Map<string, { execute(values: Record<string, unknown>): Promise<PageRows> }>();
  async function pageRows(whereOf: (v: Values) => Promise<SQL>, cursorText: string | undefined, origin: Origin | null, withCount: boolean): Promise<PageRows> {
    const { v, values, shape } = boundValues();
    const query = pageQuery(await whereOf(v), cursorText, origin, withCount, v);
    const key = `${shape()}${withCount ? ' [count]' : ''}`;
    let compiled = compiledPages.get(key);
    if (!compiled) {
      // No name: an unnamed statement, as the select's own execute() prepares it.
      compiled = query.prepare(undefined as never);
      compiledPages.set(key, compiled);
    }
    return compiled.execute(values);
  }

  async function page(where: SQL, cursorText: string | undefined, today: Date, origin: Origin | null) {
    return toPage(await pageQuery(where, cursorText, origin), today, origin);
  }

  /** A page of a search's exact matches (whereOf: its condition with the values given), and with `withCount` their capped count. */
  async function matchesPage(whereOf: (v: Values) => Promise<SQL>, cursorText: string | undefined, today: Date, origin: Origin | null, withCount = false) {
    const rows = await pageRows(whereOf, cursorText, origin, withCount);
    return { page: toPage(rows, today, origin), matches: rows[0]?.matches ?? 0 };
  }

  function toPage(rows: PageRows, today: Date, origin: Origin | null) {
    const shown = rows.slice(0, SEARCH_PAGE_SIZE);
    const last = shown.at(-1);
    return {
      profiles: shown.map((r) => {
        const summary = toProfileSummary(r as ProfileRow, today);
        const km = r.distanceKm === null ? null : Number(r.distanceKm);
        return origin && km !== null && Number.isFinite(km) ? { ...summary, distance: roundDistance(km, origin.unit) } : summary;
      }),
      next_cursor: rows.length > SEARCH_PAGE_SIZE && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }

  /** An exact count up to the cap: on a million members "1000+" says enough and costs a bounded scan. */
  function countQuery(where: SQL, q: Pick<Db, 'select'> = db) {
    // Ordered like the page, so that the planner walks the same search index and stops at the cap,
    // instead of joining all matches of a broad filter.
    const inner = q.select({ one: sql`1` }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(where)
      .orderBy(sql`${profiles.createdAt} desc nulls last`, sql`${profiles.userId} desc nulls last`)
      .limit(SEARCH_COUNT_CAP + 1);
    return q.select({ n: sql<number>`count(*)::int` }).from(inner.as('matches'));
  }

  async function cappedCount(where: SQL): Promise<{ n: number; capped: boolean }> {
    // A bounded walk of at most 1,001 index entries, without parallel workers (the connections are opened
    // without them, server/db/client.ts): they cost more to start than they save.
    const [{ n }] = await countQuery(where, db);
    return capped(n);
  }

  const BROAD = { n: SEARCH_COUNT_CAP, capped: true };
  const capped = (n: number) => (n > SEARCH_COUNT_CAP ? BROAD : { n, capped: false });

  /**
   * Filters known to match more than the cap. "1000+" stays true for minutes on a large site, so a
   * first page of a broad search skips the count for a minute instead of walking 1,001 index entries
   * on every request. The memo is shared by every instance (Redis or the database), so a search
   * counted on one is not counted again on the next one the load balancer picks; each instance keeps what it learnt
   * for KNOWN_COUNT_MS, so most first pages read no memo. Small result sets are always counted exactly: null says
   * the first page must count (with its page, matchesPage). `key`: broadFilterKey, null for a count never remembered.
   */
  async function knownFirstPageCount(key: string | null): Promise<{ n: number; capped: boolean } | null> {
    if (key === null) return null;
    const known = knownCounts.get(key);
    const fresh = known !== undefined && known.until > clock().getTime();
    if (fresh && known.broad) return BROAD;
    if (!fresh && (await memo.get(key))) {
      remember(key, true);
      return BROAD;
    }
    return null;
  }

  /** What a first page's count taught: shared with the other instances when broad, kept by this one either way. */
  async function learnt(key: string | null, matches: number): Promise<{ n: number; capped: boolean }> {
    const count = capped(matches);
    if (key === null) return count;
    if (count.capped) await memo.set(key, true, BROAD_FOR_MS);
    remember(key, count.capped);
    return count;
  }

  /** What this instance learnt of filter combinations' counts (broad: more than the cap), and until when it trusts it. */
  const knownCounts = new Map<string, { broad: boolean; until: number }>();
  function remember(key: string, broad: boolean) {
    if (knownCounts.size >= KNOWN_COUNT_MAX) knownCounts.clear();
    knownCounts.set(key, { broad, until: clock().getTime() + KNOWN_COUNT_MS });
  }

  function filtersOf(input: SearchInput): SearchFilters {
    return {
      gender: input.gender, country: input.country, countryregion: input.countryregion, min_age: input.min_age, max_age: input.max_age,
      ...(input.distance && { distance: input.distance }),
    };
  }

  /**
   * Newest members first, keyset-paged on (created_at, user_id). The first page carries numResults and,
   * when fewer than SIMILAR_RESULTS_THRESHOLD members match, similar results from relaxed filters
   * (excluding the exact matches), with their own cursor. `similar` asks for a further page of those. The actor's
   * site decides whose members appear (decision 051); a member searches as a member of their own site.
   */
  async function search(actor: Actor, input: SearchInput, options: SearchOptions = {}): Promise<SearchResult> {
    const today = clock();
    const filters = filtersOf(input);
    const searcher = options.searcher ?? (await searcherOf(actor));
    const origin = options.shopWindow ? null : searcher.origin;
    const siteId = 'siteId' in actor ? actor.siteId : null;
    const firstPage = !decodeCursor(input.cursor);
    const distance_unit = origin?.unit ?? null;
    // The exact matches, with the values given to `v`: placeholders of a statement compiled once per shape (pageRows).
    const matching = async (v: Values) => and((await visibility(actor, searcher.fictional, options.shopWindow, v)).where, matchPredicate(filters, today, origin, v))!;

    if (input.similar) {
      const { where: visible } = await visibility(actor, searcher.fictional, options.shopWindow);
      const relaxed = relaxFilters(filters, input.similar);
      const similarWhere = and(visible, matchPredicate(relaxed, today, origin), not(matchPredicate(filters, today, origin)))!;
      const similar = await page(similarWhere, input.cursor, today, origin);
      let similarCount: number | null = null;
      if (firstPage) similarCount = (await cappedCount(similarWhere)).n;
      return {
        profiles: [], numResults: null, numResults_capped: false, next_cursor: null, similar_results: { level: input.similar, filters: relaxed, ...similar },
        similar_numResults: similarCount, distance_unit,
      };
    }

    if (!firstPage) return { ...(await matchesPage(matching, input.cursor, today, origin)).page, numResults: null, numResults_capped: false, similar_results: null, similar_numResults: null, distance_unit };

    // Within a distance depends on where the member is: remembered per place (the key holds it).
    const shopWindow = Boolean(options.shopWindow) && actor.kind === 'visitor';
    const key = filters.distance && !origin ? null : broadFilterKey(filters, siteId, searcher.fictional !== undefined, shopWindow, origin);
    const known = await knownFirstPageCount(key);
    const { page: result, matches } = await matchesPage(matching, input.cursor, today, origin, !known);
    const count = known ?? (await learnt(key, matches));
    let similarResults: SimilarResults | null = null;
    let similarNum: number | null = null;
    if (count.n < SIMILAR_RESULTS_THRESHOLD) {
      const { where: visible } = await visibility(actor, searcher.fictional, options.shopWindow);
      const strict = matchPredicate(filters, today, origin);
      // The first relaxation that finds enough others wins; otherwise the widest one that finds any.
      let best: { level: SimilarLevel; relaxed: SearchFilters; n: number } | null = null;
      let previous = '';
      for (const level of SIMILAR_LEVELS) {
        const relaxed = relaxFilters(filters, level);
        const key = JSON.stringify(relaxed);
        if (key === previous || key === JSON.stringify(filters)) continue;
        previous = key;
        const { n } = await cappedCount(and(visible, matchPredicate(relaxed, today, origin), not(strict))!);
        if (n > 0) best = { level, relaxed, n };
        if (n >= SIMILAR_RESULTS_THRESHOLD) break;
      }
      if (best) {
        const similar = await page(and(visible, matchPredicate(best.relaxed, today, origin), not(strict))!, undefined, today, origin);
        similarResults = { level: best.level, filters: best.relaxed, ...similar };
        similarNum = best.n;
      }
    }
    return { ...result, numResults: count.n, numResults_capped: count.capped, similar_results: similarResults, similar_numResults: similarNum, distance_unit };
  }

  const rules = createSearchRules({ site: deps.site, searcher: searcherOf, search });

  return {
    search,
    find: rules.find,
    showcase: rules.showcase,

    /**
     * PUT /api/location.php: the member shares where they are, for distances in search. The nearest town is kept, not
     * the browser's position (a position no town is near is kept to two decimals, about a kilometre): with distances
     * rounded as common/distance.ts says, nobody can work out more than the town a member is in.
     */
    async shareLocation(actor: Actor, position: { lat: number; lon: number }) {
      const { userId } = requireMember(actor);
      const place = deps.nearestPlace(position.lat, position.lon);
      const round = (v: number) => Math.round(v * 100) / 100;
      const values = place
        ? { latitude: place.latitude, longitude: place.longitude, city: place.city }
        : { latitude: round(position.lat), longitude: round(position.lon), city: null };
      const updated = await db.update(profiles).set(values).where(eq(profiles.userId, userId)).returning({ city: profiles.city });
      if (updated.length === 0) throw notFound();
      return { location: { city: values.city } };
    },

    /** DELETE /api/location.php: no location kept any more; the member's cards show no distances, nor do others'. */
    async stopSharingLocation(actor: Actor) {
      const { userId } = requireMember(actor);
      await db.update(profiles).set({ latitude: null, longitude: null }).where(eq(profiles.userId, userId));
      return { location: null };
    },

    /** The query plans (EXPLAIN) of a search's page and count queries, for tests and the benchmark. */
    async explain(actor: Actor, input: SearchInput, options: { seqscan?: boolean } = {}): Promise<{ page: string; count: string }> {
      const { fictional, origin } = await searcherOf(actor);
      const where = and((await visibility(actor, fictional)).where, matchPredicate(filtersOf(input), clock(), origin))!;
      return db.transaction(async (tx) => {
        // Without sequential scans the planner shows whether an index can serve the query at all.
        if (options.seqscan === false) await tx.execute(sql`set local enable_seqscan = off`);
        const plan = async (query: SQLWrapper) => {
          const res = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
          return res.rows.map((r) => r['QUERY PLAN']).join('\n');
        };
        // The connections run without parallel workers (server/db/client.ts), as the real count does.
        return { page: await plan(pageQuery(where, input.cursor, origin)), count: await plan(countQuery(where, tx)) };
      });
    },
  };
}
