import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { api } from '../../lib/api.ts';
import { toId } from '#common/ids.ts';
import { SIGNUP_PATH, SMARTPHONE_AGENT, SMARTPHONE_MEDIA } from '../../lib/hydrate-on-interaction.ts';

interface OpenOptions {
  /** Sign up in the context of this member (step 0 is a message to them). */
  profileId?: number;
}

// The dialog and the sign-up form in it (its schemas, the form library, the photo upload) load when the modal
// opens, not with every page.
const SignupModal = lazy(() => import('./SignupDialog.tsx').then((m) => ({ default: m.SignupDialog })));

/** Smartphones: a narrow screen or a touch device's user agent. */
export function isSmartphone(): boolean {
  if (typeof window === 'undefined') return false;
  return window.matchMedia(SMARTPHONE_MEDIA).matches || SMARTPHONE_AGENT.test(navigator.userAgent);
}

/** /signup, /signup-matches and /members/{id}/signup are sign-up entry points. */
export function signupTarget(pathname: string): OpenOptions | null {
  const m = SIGNUP_PATH.exec(pathname);
  if (!m) return null;
  const profileId = m[1] ? toId(m[1]) : null;
  return profileId ? { profileId } : {};
}

/**
 * Provides the sign-up modal to a layout. Every link to a sign-up route opens it on larger screens,
 * so the index call to action, the log-in page's link and landing pages need no special code.
 */
export function SignupProvider({ signedIn, children }: { signedIn: boolean; children: React.ReactNode }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [profile, setProfile] = useState<ProfileSummary | null>(null);
  const [key, setKey] = useState(0);

  const openSignup = useCallback((options: OpenOptions = {}) => {
    if (signedIn) {
      void navigate('/members');
      return;
    }
    if (isSmartphone()) {
      void navigate(options.profileId ? `/members/${options.profileId}/signup` : `/signup${window.location.search}`);
      return;
    }
    setProfile(null);
    setKey((k) => k + 1);
    setOpen(true);
    if (options.profileId) {
      void api<{ profile: ProfileSummary }>(`/api/profile.php?id=${options.profileId}`).then((r) => setProfile(r.profile)).catch(() => setProfile(null));
    }
  }, [navigate, signedIn]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!anchor || anchor.target === '_blank' || anchor.origin !== window.location.origin) return;
      let target = signupTarget(anchor.pathname);
      if (!target) return;
      // A landing page's call to action signs up in the context of that member.
      const landing = /^\/members\/(\d+)\/landing/.exec(window.location.pathname);
      const landingId = landing ? toId(landing[1]) : null;
      if (landingId && !target.profileId) target = { profileId: landingId };
      event.preventDefault();
      event.stopPropagation();
      if (!signedIn && isSmartphone()) {
        // Smartphones get the page; a member's landing page leads to sign-up for that member.
        void navigate(target.profileId ? `/members/${target.profileId}/signup${anchor.search}` : `${anchor.pathname}${anchor.search}`);
        return;
      }
      openSignup(target);
    };
    // Capture phase: before React Router's link handler navigates.
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [navigate, openSignup, signedIn]);

  return (
    <>
      {children}
      {open && <Suspense fallback={null}><SignupModal key={key} profile={profile} onClose={() => setOpen(false)} /></Suspense>}
    </>
  );
}
