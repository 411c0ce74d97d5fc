import { and, eq, sql } from 'drizzle-orm';
import type { GalleryPhoto, OwnProfile, ProfileDetail, ProfileSummary } from '#common/api-types.ts';
import { ageOn } from '#common/schemas.ts';
import { ATTRIBUTE_KEYS, nameIsEmail, type AttributeKey, type ProfileInput } from '#common/profile.ts';
import { ONLINE_MINUTES } from '#common/constants.ts';
import type { SignupProfileInput } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import { queueTextChange } from '../moderation/text-reviews.ts';
import { blocks, conversations, likes, photos, profiles, regions, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { hiddenProfile, meetsSite, type ContactRules } from '../accounts/contact-rules.ts';
import { requireMember, viewerId as viewerOf, type Actor } from '../actor.ts';

/** Attribute keys of the API and their profile columns. */
const ATTRIBUTE_COLUMNS = {
  gender: profiles.gender,
  sexuality: profiles.sexuality,
  hair_color: profiles.hairColor,
  eye_color: profiles.eyeColor,
  body_type: profiles.bodyType,
  relationship_status: profiles.relationshipStatus,
  tattoos: profiles.tattoos,
  signup_reason: profiles.signupReason,
} satisfies Record<AttributeKey, unknown>;

export interface DetailOptions {
  /**
   * The profile page's view: with the attributes (and 'interests') the actor's site shows others (its
   * visible_profile_fields). Without it none; the owner always sees all of theirs.
   */
  attributes?: boolean;
}

type Gallery = (viewerId: number | null, profileId: number, mainPhotoId: number | null) => Promise<GalleryPhoto[]>;

/** The columns every profile listing selects. */
/** The online dot's last activity, never for invisible members: for statements that join the member's `users` row. */
export const lastActiveOfJoinedUser = sql<Date | null>`case when ${users.invisible} then null else ${users.lastActiveAt} end`.mapWith(users.lastActiveAt);

export const profileColumns = {
  id: profiles.userId,
  name: profiles.name,
  gender: profiles.gender,
  birthDate: profiles.birthDate,
  country: profiles.country,
  region: profiles.region,
  status: profiles.status,
  fictional: profiles.fictional,
  photoFilename: photos.filename,
  photoThumb: photos.thumbFilename,
  photoStatus: photos.status,
  /** When the member was last active, for the online dot; never for invisible members (a subquery, so every listing can select it). */
  lastActiveAt: sql<Date | null>`(select case when ${users.invisible} then null else ${users.lastActiveAt} end from ${users} where ${users.id} = ${profiles.userId})`
    .mapWith(users.lastActiveAt),
};

export type ProfileRow = {
  id: number; name: string; gender: 'male' | 'female'; birthDate: string; country: string; region: string | null;
  status: 'active' | 'disabled'; fictional: boolean;
  photoFilename: string | null; photoThumb: string | null; photoStatus: 'pending' | 'active' | 'rejected' | null;
  lastActiveAt: Date | null;
};

/** Others see a main photo only when it is approved; the owner also sees it while pending. */
/** Online: active (a page, a request or an open live socket) within the last ONLINE_MINUTES. */
export function isOnline(lastActiveAt: Date | null, now: Date): boolean {
  return lastActiveAt !== null && now.getTime() - lastActiveAt.getTime() < ONLINE_MINUTES * 60_000;
}

export function toProfileSummary(row: ProfileRow, today: Date, ownerView = false): ProfileSummary {
  const showPhoto = row.photoFilename && (row.photoStatus === 'active' || ownerView);
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthDate, today),
    gender: row.gender,
    country: row.country,
    region: row.region,
    status: row.status,
    fictional: row.fictional,
    online: isOnline(row.lastActiveAt, today),
    main_image: showPhoto
      ? { filename: row.photoFilename!, thumb_filename: row.photoThumb!, status: row.photoStatus! }
      : null,
  };
}

export function createProfilesService(deps: {
  db: Db; clock: Clock; contactRules: ContactRules; gallery: Gallery;
  /** The actor's site: which attributes its profile pages show. */
  site: (siteId: number) => Promise<{ visibleProfileFields: string[] }>;
}) {
  const { db, clock } = deps;

  async function summaryRow(userId: number) {
    const [row] = await db
      .select(profileColumns)
      .from(profiles)
      .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
      .where(eq(profiles.userId, userId));
    return row as ProfileRow | undefined;
  }

  return {
    /**
     * A member who deleted their account, as the partner of a conversation shows them: the name and age they had, no
     * photo, never online, nothing more (their profile is no longer anyone's to see). Null while the account lives.
     */
    async former(profileId: number, conversationId: number): Promise<ProfileDetail | null> {
      const [row] = await db.select({ ...profileColumns, userStatus: users.status }).from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId)).leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
        .where(eq(profiles.userId, profileId));
      if (!row || row.userStatus !== 'deleted') return null;
      const summary = toProfileSummary({ ...(row as ProfileRow), photoFilename: null, lastActiveAt: null }, clock());
      return {
        ...summary, about: '', liked: false, liked_me: false, conversation_id: conversationId, attributes: {}, interests: [], photos: [], blocked: false,
      };
    },

    async summary(userId: number, ownerView = false): Promise<ProfileSummary | null> {
      const row = await summaryRow(userId);
      return row ? toProfileSummary(row, clock(), ownerView) : null;
    },

    /**
     * A member's public profile as the actor sees it (a member sees their likes and blocks with it). Deleted accounts,
     * and members of sites the actor's site does not meet (decision 051), are simply not found.
     */
    async detail(actor: Actor, profileId: number, options: DetailOptions = {}): Promise<ProfileDetail> {
      const viewerId = viewerOf(actor);
      const siteId = 'siteId' in actor ? actor.siteId : null;
      const [row] = await db
        .select({
          ...profileColumns, about: profiles.about, userStatus: users.status, suspendedUntil: users.suspendedUntil, interests: profiles.interests, mainPhotoId: profiles.mainPhotoId,
          ...ATTRIBUTE_COLUMNS,
        })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
        .where(and(eq(profiles.userId, profileId), siteId === null ? undefined : meetsSite(siteId, users.siteId)));
      if (!row || row.userStatus === 'deleted' || (hiddenProfile({ profileStatus: row.status, suspendedUntil: row.suspendedUntil }, clock()) && viewerId !== profileId)) throw notFound();
      // The blocker may still open the profile (to unblock); the blocked member gets a plain 404.
      let blocked = false;
      if (viewerId && viewerId !== profileId) {
        const [mine] = await db.select({ x: blocks.blockerId }).from(blocks)
          .where(and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, profileId)));
        blocked = Boolean(mine);
        if (!blocked) await deps.contactRules.assertCanSee(viewerId, profileId);
      }
      const own = viewerId === profileId;
      const shown = options.attributes && siteId !== null ? (await deps.site(siteId)).visibleProfileFields : [];
      const visible = new Set(own ? [...ATTRIBUTE_KEYS, 'interests'] : shown);
      const attributes: Record<string, string> = {};
      for (const key of ATTRIBUTE_KEYS) {
        const value = row[key];
        if (visible.has(key) && value) attributes[key] = value;
      }
      let liked = false;
      let likedMe = false;
      let conversationId: number | null = null;
      if (viewerId && viewerId !== profileId) {
        const likeRows = await db
          .select({ likerId: likes.likerId })
          .from(likes)
          .where(sql`(${likes.likerId} = ${viewerId} and ${likes.likedId} = ${profileId}) or (${likes.likerId} = ${profileId} and ${likes.likedId} = ${viewerId})`);
        liked = likeRows.some((l) => l.likerId === viewerId);
        likedMe = likeRows.some((l) => l.likerId === profileId);
        const [low, high] = viewerId < profileId ? [viewerId, profileId] : [profileId, viewerId];
        const [conv] = await db
          .select({ id: conversations.id })
          .from(conversations)
          .where(and(eq(conversations.userLow, low), eq(conversations.userHigh, high)));
        conversationId = conv?.id ?? null;
      }
      return {
        ...toProfileSummary(row as ProfileRow, clock(), viewerId === profileId),
        about: row.about,
        liked,
        liked_me: likedMe,
        conversation_id: conversationId,
        attributes,
        interests: visible.has('interests') ? row.interests : [],
        photos: await deps.gallery(viewerId, profileId, row.mainPhotoId),
        blocked,
      };
    },

    /** The signed-in member's own profile, for the /profile form. */
    async own(actor: Actor): Promise<OwnProfile> {
      const { userId } = requireMember(actor);
      const [row] = await db.select({
        email: users.email, name: profiles.name, about: profiles.about, interests: profiles.interests, country: profiles.country,
        region: profiles.region, ...ATTRIBUTE_COLUMNS,
      }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(profiles.userId, userId));
      if (!row) throw notFound();
      return {
        id: userId, email: row.email, name: row.name, gender: row.gender, sexuality: row.sexuality, hair_color: row.hair_color,
        eye_color: row.eye_color, body_type: row.body_type, relationship_status: row.relationship_status, tattoos: row.tattoos,
        signup_reason: row.signup_reason, interests: row.interests, about: row.about, country: row.country, region: row.region,
      };
    },

    /** Saves the /profile form (already checked by profileSchema). The name may not be the member's address; a region must belong to the chosen country. */
    async update(actor: Actor, input: ProfileInput): Promise<OwnProfile> {
      const { userId } = requireMember(actor);
      const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (!account) throw notFound();
      if (nameIsEmail(input.name, account.email)) throw new AppError(400, 'name_equals_email', {}, { name: 'errors.name_equals_email' });
      if (input.region) {
        const [region] = await db.select({ name: regions.name }).from(regions)
          .where(and(eq(regions.country, input.country), eq(regions.name, input.region)));
        if (!region) throw new AppError(400, 'region_invalid', {}, { region: 'errors.region_invalid' });
      }
      await db.transaction(async (tx) => {
        const [current] = await tx.select({ name: profiles.name, about: profiles.about }).from(profiles).where(eq(profiles.userId, userId)).for('update');
        if (!current) throw notFound();
        await tx.update(profiles).set({
          name: input.name, gender: input.gender, sexuality: input.sexuality, hairColor: input.hair_color, eyeColor: input.eye_color,
          bodyType: input.body_type, relationshipStatus: input.relationship_status, tattoos: input.tattoos, signupReason: input.signup_reason,
          interests: input.interests, about: input.about, country: input.country, region: input.region,
        }).where(eq(profiles.userId, userId));
        // Shown at once; a moderator reviews the new name or text (decision 061).
        await queueTextChange(tx, clock(), { siteId: requireMember(actor).siteId, memberId: userId, field: 'name', before: current.name, after: input.name });
        await queueTextChange(tx, clock(), { siteId: requireMember(actor).siteId, memberId: userId, field: 'about', before: current.about, after: input.about });
      });
      return this.own(actor);
    },

    /**
     * The fields the sign-up steps set (PUT /api/signup-profile.php). A region is a code from
     * /api/regions.php and must belong to the new or current country; profiles keep its name, as the
     * profile editor and the search do. A new country without a region clears the old region.
     */
    async updateSignupFields(actor: Actor, input: SignupProfileInput): Promise<ProfileSummary | null> {
      const { userId } = requireMember(actor);
      const [current] = await db.select({ country: profiles.country, about: profiles.about }).from(profiles).where(eq(profiles.userId, userId));
      if (!current) throw notFound();
      const country = input.country ?? current.country;
      let regionName: string | null = null;
      if (input.region) {
        const [region] = await db.select({ name: regions.name }).from(regions).where(and(eq(regions.country, country), eq(regions.code, input.region)));
        if (!region) throw new AppError(400, 'region_invalid', {}, { region: 'errors.region_invalid' });
        regionName = region.name;
      }
      const update: Partial<typeof profiles.$inferInsert> = {};
      if (input.sexuality) update.sexuality = input.sexuality;
      if (input.country) update.country = input.country;
      if (input.region !== undefined) update.region = regionName;
      else if (input.country && input.country !== current.country) update.region = null;
      if (input.about !== undefined) update.about = input.about;
      if (Object.keys(update).length) {
        await db.transaction(async (tx) => {
          await tx.update(profiles).set(update).where(eq(profiles.userId, userId));
          if (input.about !== undefined) await queueTextChange(tx, clock(), { siteId: requireMember(actor).siteId, memberId: userId, field: 'about', before: current.about, after: input.about });
        });
      }
      return this.summary(userId, true);
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
