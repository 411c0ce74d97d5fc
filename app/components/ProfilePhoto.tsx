import type { ProfileSummary } from '#common/api-types.ts';
import { usePhotoUrl } from '../lib/photo-url.ts';

/**
 * A profile's main photo (thumbnail or full), or the first letter of the name when there is none. `priority`: a
 * photo in the first screenful (the page's largest paint), loaded at once and first, not lazily.
 */
export function ProfilePhoto({ profile, size = 'thumb', className, priority = false }: {
  profile: ProfileSummary; size?: 'thumb' | 'full'; className?: string; priority?: boolean;
}) {
  const image = profile.main_image;
  const photoUrl = usePhotoUrl();
  if (!image) {
    return <div className={`photo-placeholder ${className ?? ''}`} aria-label={profile.name}>{profile.name.slice(0, 1).toUpperCase()}</div>;
  }
  return (
    <img
      src={photoUrl(size === 'thumb' ? image.thumb_filename : image.filename, image.status === 'active')}
      alt={profile.name}
      className={className}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      width={size === 'thumb' ? 200 : 500}
      height={size === 'thumb' ? 240 : 600}
    />
  );
}
