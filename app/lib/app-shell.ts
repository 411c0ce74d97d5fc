import { useEffect } from 'react';

export const SERVICE_WORKER_URL = '/sw.js';

/**
 * Registers the service worker on every page, so an installed app starts without a connection and
 * push notifications have a worker to arrive at. Browsers without service workers simply go without.
 * The worker is told the page's language, so the offline page it keeps speaks the member's language.
 */
export function useAppShell(lang: string) {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
      // A private window or a blocked worker: the site works the same, only offline start and push are missing.
    });
  }, []);
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: 'LANGUAGE', lang }));
  }, [lang]);
}
