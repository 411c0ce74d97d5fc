import { useCallback, useEffect, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { WelcomeBonusRecord } from '#common/api-types.ts';
import { DISMISS_KEYS, dismissalsCookie, dismissedInCookie } from '#common/constants.ts';

export type DismissKey = (typeof DISMISS_KEYS)[keyof typeof DISMISS_KEYS];

/** What the default layout's loader read from the request for the first render (see app/layouts/default.tsx). */
export interface LayoutData {
  dismissed: string[];
  /** The member's welcome time bonus when it runs, and the server's time it was rendered at (unix ms). */
  welcomeBonus: WelcomeBonusRecord | null;
  renderedAt: number;
}

function readDismissed(key: DismissKey): number | null {
  try {
    const v = Number(window.localStorage.getItem(key));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** Records a dismissal time (in private mode, for this page view only). */
function storeDismissed(key: DismissKey, time: number) {
  try {
    window.localStorage.setItem(key, String(time));
  } catch {
    // Private mode: the alert stays hidden for this page view only.
  }
}

/**
 * The dismissed keys as a cookie too, so the next server render leaves those alerts out. Dismissals only
 * grow, so the write adds to what the cookie holds now: the server may have added one since this page was
 * rendered (the entry warning's form, posted while this page's code was starting).
 */
function writeCookie(keys: string[]) {
  document.cookie = dismissalsCookie(new Set([...dismissedInCookie(document.cookie), ...keys]));
}

/**
 * Dismissal times (unix seconds) in localStorage. The first render (on the server and at hydration) goes by the
 * dismissals cookie, which the default layout's loader reads, so an alert does not appear or vanish after the
 * page is shown; localStorage is read after hydration, and the two are brought together (each keeps what the other
 * had).
 */
export function useDismissals() {
  const layout = useRouteLoaderData('layouts/default') as LayoutData | undefined;
  const [loaded, setLoaded] = useState(false);
  const [fromCookie] = useState(() => new Set(layout?.dismissed ?? []));
  const [dismissed, setDismissed] = useState<Partial<Record<DismissKey, number>>>({});
  useEffect(() => {
    const all: Partial<Record<DismissKey, number>> = {};
    const now = Math.floor(Date.now() / 1000);
    for (const key of Object.values(DISMISS_KEYS)) {
      const v = readDismissed(key);
      if (v) all[key] = v;
      else if (fromCookie.has(key)) {
        // Dismissed where only the server saw it (the entry warning's form posted before the page ran): a
        // dismissal all the same, kept here too, so that the cookie written below does not drop it.
        all[key] = now;
        storeDismissed(key, now);
      }
    }
    setDismissed(all);
    setLoaded(true);
    const keys = Object.keys(all).sort();
    if (keys.join('.') !== [...fromCookie].sort().join('.')) writeCookie(keys);
  }, [fromCookie]);
  const dismiss = useCallback((key: DismissKey) => {
    const now = Math.floor(Date.now() / 1000);
    storeDismissed(key, now);
    setDismissed((d) => {
      const next = { ...d, [key]: now };
      writeCookie(Object.keys(next).sort());
      return next;
    });
  }, []);
  // Outside the default layout (no cookie read) nothing shows before localStorage is known.
  const isDismissed = (key: DismissKey) => (loaded ? Boolean(dismissed[key]) : layout ? fromCookie.has(key) : true);
  return { loaded, isDismissed, dismiss };
}
