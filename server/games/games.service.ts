import { and, desc, eq, gt, lte, notExists, sql, type SQL } from 'drizzle-orm';
import type { ProfileSummary } from '#common/api-types.ts';
import { COUNTRY_TIME_ZONE, MAX_AGE, MIN_AGE, SWIPE_LIKES_PER_DAY } from '#common/constants.ts';
import type { MatchPreferencesInput } from '#common/games.ts';
import { distanceUnit, roundDistance } from '#common/distance.ts';
import { ageOn } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import { likes, matchPreferences, photos, profiles, swipePasses, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { requireMember, type Actor, type MemberActor } from '../actor.ts';
import { listedFor, type ContactRules, type SitePool } from '../accounts/contact-rules.ts';
import type { LikesService } from '../likes/likes.service.ts';
import { profileColumns, toProfileSummary, type ProfileRow } from '../profiles/profiles.service.ts';
import { localDay } from './local-day.ts';

/** Cards handed out per request; the game asks for more when they run low. */
const DECK_SIZE = 10;
/** Candidates the match finder scores before it keeps the best. */
const MATCH_POOL = 300;
const MATCH_RESULTS = 12;
const DAY_MS = 24 * 3_600_000;

/** A listed member's row with their shared place (null when none), which only the distance computed from it leaves. */
type LocatedRow = ProfileRow & { lat: number | null; lon: number | null };

export interface MatchReason { code: 'age' | 'distance' | 'region' | 'active' | 'interests' | 'photo'; value?: number | string }
export type MatchCandidate = ProfileSummary & { score: number; reasons: MatchReason[] };

/** Who a member wants to meet by default: from their own gender and what they said they look for. */
export function wantedGender(own: 'male' | 'female', sexuality: string | null): 'male' | 'female' | null {
  if (sexuality === 'bi') return null;
  if (sexuality === 'gay' || sexuality === 'lesbian') return own;
  return own === 'male' ? 'female' : 'male';
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Birth dates of people aged min..max on `today` (inclusive), as ISO dates. */
function birthRange(today: Date, minAge: number, maxAge: number) {
  const y = today.getUTCFullYear();
  const md = today.toISOString().slice(4, 10);
  return { after: `${y - maxAge - 1}${md}`, onOrBefore: `${y - minAge}${md}` };
}

export function createGamesService(deps: { db: Db; clock: Clock; likes: LikesService; contactRules: Pick<ContactRules, 'pool' | 'fictionalShown'> }) {
  const { db, clock } = deps;

  async function me(userId: number) {
    const [row] = await db
      .select({ gender: profiles.gender, sexuality: profiles.sexuality, country: profiles.country, region: profiles.region,
        birthDate: profiles.birthDate, lat: profiles.latitude, lon: profiles.longitude, interests: profiles.interests, language: users.language })
      .from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(profiles.userId, userId));
    if (!row) throw notFound();
    return row;
  }

  /**
   * A card of the deck as the search shows one (common/distance.ts): with the rounded distance, in the member's unit,
   * when both shared a place; the other's place itself never leaves the server.
   */
  function deckCard(row: LocatedRow, self: Awaited<ReturnType<typeof me>>, today: Date): ProfileSummary {
    const summary = toProfileSummary(row, today);
    if (self.lat === null || self.lon === null || row.lat === null || row.lon === null) return summary;
    const km = distanceKm({ lat: self.lat, lon: self.lon }, { lat: row.lat, lon: row.lon });
    return { ...summary, distance: roundDistance(km, distanceUnit(self.language, self.country)) };
  }

  /** Nobody the member already liked. */
  const notLikedBy = (userId: number) =>
    notExists(db.select({ x: likes.likerId }).from(likes).where(and(eq(likes.likerId, userId), eq(likes.likedId, profiles.userId))));

  /** The member's swipe day: in their country's time zone. */
  function swipeDay(country: string) {
    return localDay(clock(), COUNTRY_TIME_ZONE[country] ?? 'UTC');
  }

  async function swipeState(actor: MemberActor, country: string) {
    const day = swipeDay(country);
    const used = await deps.likes.countGiven(actor, 'swipe', day.start);
    return { likes_left: Math.max(0, SWIPE_LIKES_PER_DAY - used), likes_per_day: SWIPE_LIKES_PER_DAY, resets_at: day.end.toISOString() };
  }

  const listed = (actor: MemberActor, pool: SitePool, extra: SQL[]) =>
    db.select({ ...profileColumns, lastActiveAt: users.lastActiveAt, lat: profiles.latitude, lon: profiles.longitude, interests: profiles.interests, city: profiles.city })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
      .where(and(listedFor(actor, pool, clock()), notLikedBy(actor.userId), ...extra));

  return {
    /** GET /api/swipe-game.php: the next cards (members with a photo only, recently active first) and today's likes left. */
    async swipeDeck(actor: Actor): Promise<{ profiles: ProfileSummary[]; likes_left: number; likes_per_day: number; resets_at: string }> {
      const member = requireMember(actor);
      const { userId } = member;
      const self = await me(userId);
      const gender = wantedGender(self.gender, self.sexuality);
      const rows = await listed(member, await deps.contactRules.pool(member), [
        notExists(db.select({ x: swipePasses.userId }).from(swipePasses).where(and(eq(swipePasses.userId, userId), eq(swipePasses.profileId, profiles.userId)))),
        ...(gender ? [eq(profiles.gender, gender)] : []),
        await deps.contactRules.fictionalShown(member),
        // A card is a face: members without a main photo that may be shown (active) are not dealt.
        eq(photos.status, 'active'),
      ].filter((c) => c !== undefined))
        .orderBy(sql`${users.lastActiveAt} desc nulls last`, desc(profiles.createdAt), desc(profiles.userId))
        .limit(DECK_SIZE);
      const today = clock();
      return { profiles: rows.map((r) => deckCard(r as LocatedRow, self, today)), ...(await swipeState(member, self.country)) };
    },

    /** A like from the game: at most SWIPE_LIKES_PER_DAY a day, counted in the member's own day. */
    async swipeLike(actor: Actor, profileId: number) {
      const member = requireMember(actor);
      const self = await me(member.userId);
      const day = swipeDay(self.country);
      const { match } = await deps.likes.like(member, profileId, { source: 'swipe', quota: { max: SWIPE_LIKES_PER_DAY, since: day.start, until: day.end } });
      return { match, ...(await swipeState(member, self.country)) };
    },

    /** A pass: the card does not come back, unless the pass is undone. */
    async swipePass(actor: Actor, profileId: number) {
      const member = requireMember(actor);
      const { userId } = member;
      if (userId === profileId) throw new AppError(400, 'cannot_like_self');
      const [target] = await db.select({ id: profiles.userId }).from(profiles).innerJoin(users, eq(users.id, profiles.userId))
        .where(and(eq(profiles.userId, profileId), listedFor(member, await deps.contactRules.pool(member), clock())));
      if (!target) throw notFound();
      await db.insert(swipePasses).values({ userId, profileId, createdAt: clock() })
        .onConflictDoUpdate({ target: [swipePasses.userId, swipePasses.profileId], set: { createdAt: clock() } });
      return { ok: true as const };
    },

    /** Undo: the last pass is taken back and its card returned, to be shown again on top. */
    async swipeUndo(actor: Actor): Promise<{ profile: ProfileSummary }> {
      const member = requireMember(actor);
      const { userId } = member;
      const pool = await deps.contactRules.pool(member);
      const self = await me(userId);
      return db.transaction(async (tx) => {
        const [last] = await tx.select({ profileId: swipePasses.profileId }).from(swipePasses)
          .where(eq(swipePasses.userId, userId)).orderBy(desc(swipePasses.createdAt)).limit(1).for('update');
        if (!last) throw new AppError(404, 'nothing_to_undo');
        await tx.delete(swipePasses).where(and(eq(swipePasses.userId, userId), eq(swipePasses.profileId, last.profileId)));
        const [row] = await tx.select({ ...profileColumns, lat: profiles.latitude, lon: profiles.longitude }).from(profiles).innerJoin(users, eq(users.id, profiles.userId))
          .leftJoin(photos, eq(photos.id, profiles.mainPhotoId)).where(and(eq(profiles.userId, last.profileId), listedFor(member, pool, clock())));
        // Gone since the pass (deleted, invisible, blocked): nothing to show again.
        if (!row) throw new AppError(404, 'nothing_to_undo');
        return { profile: deckCard(row as LocatedRow, self, clock()) };
      });
    },

    /** The questionnaire's answers, or defaults from the profile (null `saved` until the member answered). */
    async matchPreferences(actor: Actor): Promise<{ saved: boolean; preferences: MatchPreferencesInput }> {
      const { userId } = requireMember(actor);
      const self = await me(userId);
      const [row] = await db.select().from(matchPreferences).where(eq(matchPreferences.userId, userId));
      if (row) return { saved: true, preferences: { gender: row.gender, min_age: row.minAge, max_age: row.maxAge, max_distance_km: row.maxDistanceKm } };
      const age = ageOn(self.birthDate, clock());
      return {
        saved: false,
        preferences: { gender: wantedGender(self.gender, self.sexuality), min_age: Math.max(MIN_AGE, age - 10), max_age: Math.min(MAX_AGE, age + 10), max_distance_km: null },
      };
    },

    async saveMatchPreferences(actor: Actor, input: MatchPreferencesInput) {
      const { userId } = requireMember(actor);
      await me(userId);
      const values = { gender: input.gender, minAge: input.min_age, maxAge: input.max_age, maxDistanceKm: input.max_distance_km, updatedAt: clock() };
      await db.insert(matchPreferences).values({ userId, ...values }).onConflictDoUpdate({ target: matchPreferences.userId, set: values });
      return { saved: true, preferences: input };
    },

    /**
     * GET /api/match-finder.php: candidates who fit the stated preferences (gender and age are
     * required; distance counts when both have a place), ranked by closeness, recent activity,
     * shared interests and a photo, each with the reasons it was chosen.
     */
    async matchFinder(actor: Actor): Promise<{ saved: boolean; preferences: MatchPreferencesInput; profiles: MatchCandidate[] }> {
      const member = requireMember(actor);
      const { userId } = member;
      const self = await me(userId);
      const { saved, preferences } = await this.matchPreferences(actor);
      if (!saved) return { saved, preferences, profiles: [] };
      const now = clock();
      const range = birthRange(now, preferences.min_age, preferences.max_age);
      const rows = await listed(member, await deps.contactRules.pool(member), [
        eq(profiles.country, self.country),
        gt(profiles.birthDate, range.after),
        lte(profiles.birthDate, range.onOrBefore),
        ...(preferences.gender ? [eq(profiles.gender, preferences.gender)] : []),
      ]).orderBy(sql`${users.lastActiveAt} desc nulls last`, desc(profiles.userId)).limit(MATCH_POOL);

      const origin = self.lat !== null && self.lon !== null ? { lat: self.lat, lon: self.lon } : null;
      const mine = new Set(self.interests);
      const scored: MatchCandidate[] = [];
      for (const row of rows) {
        const reasons: MatchReason[] = [{ code: 'age', value: `${preferences.min_age}–${preferences.max_age}` }];
        let score = 0;
        const km = origin && row.lat !== null && row.lon !== null ? Math.round(distanceKm(origin, { lat: row.lat, lon: row.lon })) : null;
        if (preferences.max_distance_km !== null && km !== null && km > preferences.max_distance_km) continue;
        if (km !== null) {
          score += Math.max(0, 40 - km / 5);
          reasons.push({ code: 'distance', value: km });
        } else if (self.region && row.region === self.region) {
          score += 25;
          reasons.push({ code: 'region', value: row.region });
        }
        const idleDays = row.lastActiveAt ? (now.getTime() - row.lastActiveAt.getTime()) / DAY_MS : null;
        if (idleDays !== null && idleDays <= 7) {
          score += 30 - idleDays * 3;
          reasons.push({ code: 'active' });
        }
        const shared = row.interests.filter((i) => mine.has(i)).length;
        if (shared) {
          score += Math.min(20, shared * 5);
          reasons.push({ code: 'interests', value: shared });
        }
        if (row.photoStatus === 'active') {
          score += 10;
          reasons.push({ code: 'photo' });
        }
        scored.push({ ...toProfileSummary(row as ProfileRow, now), score: Math.round(score), reasons });
      }
      scored.sort((a, b) => b.score - a.score || b.id - a.id);
      return { saved, preferences, profiles: scored.slice(0, MATCH_RESULTS) };
    },
  };
}
