import { useEffect, useState } from 'react';
import { useFetchers, useNavigation, useRevalidator } from 'react-router';
import { LOADING_BAR } from '#common/constants.ts';

/** However long the work, the bar finishes by then: a request that never settles must not hold it at 90 % for minutes. */
const CAP = LOADING_BAR.throttle + 2 * LOADING_BAR.duration;

/**
 * A top loading bar for navigations, fetchers and revalidations (after a like, a search, a send): it appears only
 * when loading takes longer than the throttle, creeps towards the end over `duration`, and fades out `hideDelay`
 * after loading ends. Each phase has its own timer, so a new load during the fade starts the bar again and an
 * old fade never leaves it behind.
 */
export function LoadingBar() {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const fetchers = useFetchers();
  const busy = navigation.state !== 'idle' || revalidator.state !== 'idle' || fetchers.some((f) => f.state !== 'idle');
  const [phase, setPhase] = useState<'hidden' | 'running' | 'done'>('hidden');

  useEffect(() => {
    if (busy) {
      const start = setTimeout(() => setPhase('running'), LOADING_BAR.throttle);
      const cap = setTimeout(() => setPhase((p) => (p === 'running' ? 'done' : p)), CAP);
      return () => {
        clearTimeout(start);
        clearTimeout(cap);
      };
    }
    setPhase((p) => (p === 'running' ? 'done' : p));
    return undefined;
  }, [busy]);

  useEffect(() => {
    if (phase !== 'done') return undefined;
    const hide = setTimeout(() => setPhase('hidden'), LOADING_BAR.hideDelay);
    return () => clearTimeout(hide);
  }, [phase]);

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
