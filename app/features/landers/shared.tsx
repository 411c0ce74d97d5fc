import { useTranslation } from '../../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { countryName } from '../../lib/format.ts';
import { usePhotoUrl } from '../../lib/photo-url.ts';

/**
 * Every call to action of a lander leads to sign-up with the page's query string, so the campaign's
 * tracking parameters (network, ref, sub1–sub3) come along; the sign-up modal opens on larger screens.
 */
export function signupHref(search: string): string {
  return `/signup${search}`;
}

/** Sign-up in the context of one member: the first step is a message to them. */
export function memberSignupHref(id: number, search: string): string {
  return `/members/${id}/signup${search}`;
}

/**
 * A member's photo on a lander: always with its size (no layout shift) and lazy unless it is the first
 * thing a visitor sees.
 */
export function LanderPhoto({ profile, size = 'full', eager = false, className, alt }: {
  profile: ProfileSummary; size?: 'thumb' | 'full'; eager?: boolean; className?: string; alt?: string;
}) {
  const image = profile.main_image;
  const photoUrl = usePhotoUrl();
  if (!image) return null;
  const thumb = size === 'thumb';
  return (
    <img
      src={photoUrl(thumb ? image.thumb_filename : image.filename, image.status === 'active')}
      alt={alt ?? profile.name}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      width={thumb ? 200 : 500}
      height={thumb ? 240 : 600}
    />
  );
}

/** "Utrecht" or, without a region, the country's name in the visitor's language. */
export function usePlace() {
  const { i18n } = useTranslation();
  return (profile: ProfileSummary) => profile.region ?? countryName(profile.country, i18n.language as Language);
}

/** "Already a member? Log in". */
export function LanderLogin({ className }: { className?: string }) {
  const { t } = useTranslation();
  return <Link to="/login" className={className} data-testid="lander-login">{t('landing.login')}</Link>;
}
