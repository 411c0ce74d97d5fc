import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { countryName } from '../lib/format.ts';
import type { Language } from '#common/languages.ts';
import { ProfilePhoto } from './ProfilePhoto.tsx';
import { FictionalNotice } from './FictionalNotice.tsx';
import { OnlineDot } from './OnlineDot.tsx';

/** How far away a member is, in the viewer's unit (the server rounds it, common/distance.ts): "3 km", "< 1 km", "12 mi". */
const DISTANCE_KEYS = {
  km: ['member_search.distance_km', 'member_search.distance_under_km'],
  mi: ['member_search.distance_mi', 'member_search.distance_under_mi'],
} as const;

/** `priority`: the card is in the first screenful (see ProfilePhoto). */
export function ProfileCard({ profile, priority = false }: { profile: ProfileSummary; priority?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Link to={`/members/${profile.id}`} className="card profile-card h-100 text-reset shadow-sm" data-testid="profile-card">
      <ProfilePhoto profile={profile} priority={priority} />
      <div className="card-body p-2">
        <div className="fw-semibold text-truncate"><OnlineDot online={profile.online} />{profile.name}, {profile.age}</div>
        <div className="small text-muted text-break" data-testid="profile-card-country">{countryName(profile.country, i18n.language as Language)}</div>
        {profile.distance && (
          <div className="small text-muted" data-testid="profile-card-distance">
            {t(DISTANCE_KEYS[profile.distance.unit][profile.distance.less_than ? 1 : 0], { value: profile.distance.value })}
          </div>
        )}
        {profile.fictional && <FictionalNotice compact />}
      </div>
    </Link>
  );
}
