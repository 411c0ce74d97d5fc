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
    window.addEventListener('pagehide', leave);
    // Armed: `<html data-page-bounce>` says so (tests wait for it before leaving the page).
    document.documentElement.dataset.pageBounce = 'armed';
    return () => {
      window.removeEventListener('pagehide', leave);
      delete document.documentElement.dataset.pageBounce;
    };
  }, []);
}
