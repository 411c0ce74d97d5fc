import { useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from '../../lib/i18n.ts';
import type { ProfileSummary } from '#common/api-types.ts';
import { FictionalNotice } from '../../components/FictionalNotice.tsx';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';
import { useFocusTrap } from '../../lib/focus-trap.ts';
import './likes.scss';

export type OverlayProfile = ProfileSummary & { match: boolean };

/**
 * Spec section 2: the new like / match overlay. Full screen, a thumbs-up animation, "New like!" (or
 * the match text), the liker's main photo and one action button. A click anywhere closes it; a click
 * on the photo or the button does not, and reports the profile id instead. Escape closes it too; Tab
 * stays inside it, and the focus goes back where it was when it closes.
 */
export function LikeOverlay({ profile, starting = false, onClose, onSelect }: {
  profile: OverlayProfile;
  /** The conversation with them is being started (their "Send a message" was chosen and the chat is opening). */
  starting?: boolean;
  onClose: () => void;
  onSelect: (profileId: number) => void;
}) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog);
  useEffect(() => {
    button.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const select = (e: React.MouseEvent) => {
    e.stopPropagation();
    onSelect(profile.id);
  };
  const title = profile.match ? t('like_overlay.match', { name: profile.name }) : t('like_overlay.new_like');
  return (
    <div
      ref={dialog} className="like-overlay" role="dialog" aria-modal="true" aria-labelledby="like-overlay-title" aria-busy={starting}
      data-testid="like-overlay" data-profile-id={profile.id} data-starting={starting || undefined} onClick={onClose}
    >
      <svg className="like-overlay-thumb" viewBox="0 0 24 24" width="96" height="96" aria-hidden="true">
        <path fill="currentColor" d="M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L13.17 1 6.59 7.59C6.22 7.95 6 8.45 6 9v10a2 2 0 0 0 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z" />
      </svg>
      <h2 id="like-overlay-title" className="like-overlay-title">{title}</h2>
      <button type="button" className="like-overlay-photo" onClick={select} data-testid="like-overlay-photo" aria-label={t('like_overlay.view', { name: profile.name })}>
        <ProfilePhoto profile={profile} size="full" />
      </button>
      <p className="like-overlay-name">{profile.name}, {profile.age}</p>
      {profile.fictional && <FictionalNotice compact />}
      <Button ref={button} variant="secondary" size="lg" onClick={select} disabled={starting} data-testid="like-overlay-action">
        {starting && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
        {starting ? t('like_overlay.starting', { name: profile.name }) : profile.match ? t('like_overlay.send_message') : t('like_overlay.view_profile')}
      </Button>
      <p className="like-overlay-hint">{t('like_overlay.close_hint')}</p>
    </div>
  );
}
