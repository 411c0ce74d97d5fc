import { useCallback, useEffect, useState } from 'react';
import { DISMISS_KEYS } from '#common/constants.ts';

export type DismissKey = (typeof DISMISS_KEYS)[keyof typeof DISMISS_KEYS];

function readDismissed(key: DismissKey): number | null {
  try {
    const v = Number(window.localStorage.getItem(key));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** Dismissal times (unix seconds) in localStorage; read after hydration so the server render stays the same. */
export function useDismissals() {
  const [loaded, setLoaded] = useState(false);
  const [dismissed, setDismissed] = useState<Partial<Record<DismissKey, number>>>({});
  useEffect(() => {
    const all: Partial<Record<DismissKey, number>> = {};
    for (const key of Object.values(DISMISS_KEYS)) {
      const v = readDismissed(key);
      if (v) all[key] = v;
    }
    setDismissed(all);
    setLoaded(true);
  }, []);
  const dismiss = useCallback((key: DismissKey) => {
    const now = Math.floor(Date.now() / 1000);
    try {
      window.localStorage.setItem(key, String(now));
    } catch {
      // Private mode: the alert stays hidden for this page view only.
    }
    setDismissed((d) => ({ ...d, [key]: now }));
  }, []);
  return { loaded, isDismissed: (key: DismissKey) => !loaded || Boolean(dismissed[key]), dismiss };
}
