import type { ProfileSummary } from '#common/api-types.ts';

/** A profile's main photo (thumbnail or full), or the first letter of the name when there is none. */
export function ProfilePhoto({ profile, size = 'thumb', className }: { profile: ProfileSummary; size?: 'thumb' | 'full'; className?: string }) {
  const image = profile.main_image;
  if (!image) {
    return <div className={`photo-placeholder ${className ?? ''}`} aria-label={profile.name}>{profile.name.slice(0, 1).toUpperCase()}</div>;
  }
  return (
    <img
      src={`/photos/${size === 'thumb' ? image.thumb_filename : image.filename}`}
      alt={profile.name}
      className={className}
      loading="lazy"
      width={size === 'thumb' ? 200 : 500}
      height={size === 'thumb' ? 240 : 600}
    />
  );
}
