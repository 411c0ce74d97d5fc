import { useEffect } from 'react';
import { PAGE_BOUNCE_PARAM } from '#common/constants.ts';

/**
 * Spec section 2: `?lb` turns on page-bounce logging for a visit. When the visitor leaves the page
 * (closes it, goes elsewhere), a beacon tells the server how many seconds they stayed; the operator
 * reads the report at GET /api/page-bounce.php.
 */
export function usePageBounceLog() {
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(PAGE_BOUNCE_PARAM) || typeof navigator.sendBeacon !== 'function') return;
    const started = performance.now();
    let sent = false;
    const leave = () => {
      if (sent) return;
      sent = true;
      const body = JSON.stringify({ path: url.pathname, seconds: Math.round((performance.now() - started) / 1000) });
      navigator.sendBeacon('/api/page-bounce.php', new Blob([body], { type: 'application/json' }));
    };
    // Mobile browsers may discard a page in the background without `pagehide`: a hidden page counts as left.
    const hidden = () => { if (document.visibilityState === 'hidden') leave(); };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', hidden);
    // Armed: `<html data-page-bounce>` says so (tests wait for it before leaving the page).
    document.documentElement.dataset.pageBounce = 'armed';
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', hidden);
      delete document.documentElement.dataset.pageBounce;
    };
  }, []);
}
