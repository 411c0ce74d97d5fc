import type { ReactNode } from 'react';
import { MapPin } from 'lucide-react';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { countryName } from '../lib/format.ts';
import type { Language } from '#common/languages.ts';
import { ProfilePhoto } from './ProfilePhoto.tsx';
import { FictionalNotice } from './FictionalNotice.tsx';
import { OnlineDot } from './OnlineDot.tsx';
import '../features/search/cards.scss';

/** How far away a member is, in the viewer's unit (the server rounds it, common/distance.ts): "3 km", "< 1 km", "12 mi". */
const DISTANCE_KEYS = {
  km: ['member_search.distance_km', 'member_search.distance_under_km'],
  mi: ['member_search.distance_mi', 'member_search.distance_under_mi'],
} as const;

/** "12 km" / "< 1 mi", or null when the card carries no distance (one of the two shared no location). */
export function useDistanceText(): (profile: ProfileSummary) => string | null {
  const { t } = useTranslation();
  return (profile) => profile.distance
    ? t(DISTANCE_KEYS[profile.distance.unit][profile.distance.less_than ? 1 : 0], { value: profile.distance.value })
    : null;
}

/**
 * What a photo-first card says over its photo, on the scrim: name and age with the online state, where the member
 * lives, how far away they are and, for a fictional profile, its marking. `name` replaces the plain name (the swipe
 * deck links it to the profile).
 */
export function ProfileCaption({ profile, name, showRegion = false }: { profile: ProfileSummary; name?: ReactNode; showRegion?: boolean }) {
  const { i18n } = useTranslation();
  const distance = useDistanceText()(profile);
  return (
    <div className="photo-caption">
      <div className="photo-caption-name">
        {name ?? <span className="text-truncate">{profile.name}, {profile.age}</span>}
        <OnlineDot online={profile.online} />
      </div>
      <div className="photo-caption-meta text-break">
        {showRegion && profile.region && `${profile.region}, `}
        <span data-testid="profile-card-country">{countryName(profile.country, i18n.language as Language)}</span>
      </div>
      {distance && (
        <div className="photo-caption-meta">
          <MapPin size={13} aria-hidden="true" className="me-1" /><span data-testid="profile-card-distance">{distance}</span>
        </div>
      )}
      {profile.fictional && <FictionalNotice compact onDark />}
    </div>
  );
}

/** `priority`: the card is in the first screenful (see ProfilePhoto). The photo fills the card; the words lie over it. */
export function ProfileCard({ profile, priority = false }: { profile: ProfileSummary; priority?: boolean }) {
  return (
    <Link to={`/members/${profile.id}`} className="profile-card text-reset" data-testid="profile-card">
      <ProfilePhoto profile={profile} priority={priority} className="profile-card-photo" />
      <ProfileCaption profile={profile} />
    </Link>
  );
}
