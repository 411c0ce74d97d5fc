import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { LOADING_BAR } from '#common/constants.ts';

/**
 * A top loading bar for navigations: it appears only when loading takes longer than the throttle,
 * creeps towards the end over `duration`, and fades out `hideDelay` after loading ends.
 */
export function LoadingBar() {
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<'hidden' | 'running' | 'done'>('hidden');

  useEffect(() => {
    if (busy) {
      const t = setTimeout(() => setPhase('running'), LOADING_BAR.throttle);
      return () => clearTimeout(t);
    }
    if (phase === 'running') {
      setPhase('done');
      const t = setTimeout(() => setPhase('hidden'), LOADING_BAR.hideDelay);
      return () => clearTimeout(t);
    }
    return undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [busy]);

  if (phase === 'hidden') return null;
  return (
    <div
      className="loading-bar"
      role="progressbar"
      aria-hidden="true"
      data-testid="loading-bar"
      // Rendered in the browser only (hidden on the server): React sets the style through the CSSOM, which the
      // page's Content-Security-Policy allows, unlike a style attribute in the server's HTML (docs/decisions/052).
      // eslint-disable-next-line no-restricted-syntax
      style={{
        width: phase === 'done' ? '100%' : '90%',
        opacity: phase === 'done' ? 0 : 1,
        transition: phase === 'running' ? `width ${LOADING_BAR.duration}ms ease-out` : `width 200ms ease, opacity ${LOADING_BAR.hideDelay}ms ease`,
      }}
    />
  );
}
