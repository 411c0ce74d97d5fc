import { and, eq, sql } from 'drizzle-orm';
import type { ProfileDetail, ProfileSummary } from '#common/api-types.ts';
import { ageOn } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import { conversations, likes, photos, profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { notFound } from '../infra/errors.ts';
import type { ContactRules } from '../accounts/contact-rules.ts';

/** The columns every profile listing selects. */
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
};

export type ProfileRow = {
  id: number; name: string; gender: 'male' | 'female'; birthDate: string; country: string; region: string | null;
  status: 'active' | 'disabled'; fictional: boolean;
  photoFilename: string | null; photoThumb: string | null; photoStatus: 'pending' | 'active' | 'rejected' | null;
};

/** Others see a main photo only when it is approved; the owner also sees it while pending. */
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
    main_image: showPhoto
      ? { filename: row.photoFilename!, thumb_filename: row.photoThumb!, status: row.photoStatus! }
      : null,
  };
}

export function createProfilesService(deps: { db: Db; clock: Clock; contactRules: ContactRules }) {
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
    async summary(userId: number, ownerView = false): Promise<ProfileSummary | null> {
      const row = await summaryRow(userId);
      return row ? toProfileSummary(row, clock(), ownerView) : null;
    },

    /** A member's public profile as `viewerId` sees it. Deleted accounts are simply not found. */
    async detail(viewerId: number | null, profileId: number): Promise<ProfileDetail> {
      const [row] = await db
        .select({ ...profileColumns, about: profiles.about, userStatus: users.status })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
        .where(eq(profiles.userId, profileId));
      if (!row || row.userStatus === 'deleted' || (row.status === 'disabled' && viewerId !== profileId)) throw notFound();
      await deps.contactRules.assertCanSee(viewerId, profileId);
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
      };
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
