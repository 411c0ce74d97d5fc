import { lazy, Suspense } from 'react';
import { useLikeOverlay } from './use-like-overlay.ts';

// The overlay's code loads with its first like, not with every page.
const LikeOverlay = lazy(() => import('./LikeOverlay.tsx').then((m) => ({ default: m.LikeOverlay })));

/** The overlay for a signed-in member, wherever they are: live likes and the automatic like call. */
export function LikeOverlayHost({ signedIn }: { signedIn: boolean }) {
  const { profile, starting, close, select } = useLikeOverlay(signedIn);
  return profile ? <Suspense fallback={null}><LikeOverlay profile={profile} starting={starting} onClose={close} onSelect={select} /></Suspense> : null;
}
