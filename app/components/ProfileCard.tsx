import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { countryName } from '../lib/format.ts';
import type { Language } from '#common/languages.ts';
import { ProfilePhoto } from './ProfilePhoto.tsx';
import { FictionalNotice } from './FictionalNotice.tsx';
import { OnlineDot } from './OnlineDot.tsx';

/** `priority`: the card is in the first screenful (see ProfilePhoto). */
export function ProfileCard({ profile, priority = false }: { profile: ProfileSummary; priority?: boolean }) {
  const { i18n } = useTranslation();
  return (
    <Link to={`/members/${profile.id}`} className="card profile-card h-100 text-reset shadow-sm" data-testid="profile-card">
      <ProfilePhoto profile={profile} priority={priority} />
      <div className="card-body p-2">
        <div className="fw-semibold text-truncate"><OnlineDot online={profile.online} />{profile.name}, {profile.age}</div>
        <div className="small text-muted text-break" data-testid="profile-card-country">{countryName(profile.country, i18n.language as Language)}</div>
        {profile.fictional && <FictionalNotice compact />}
      </div>
    </Link>
  );
}
