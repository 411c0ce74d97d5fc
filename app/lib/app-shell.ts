import { useEffect } from 'react';

export const SERVICE_WORKER_URL = '/sw.js';

/**
 * Registers the service worker on every page, so an installed app starts without a connection and
 * push notifications have a worker to arrive at. Browsers without service workers simply go without.
 */
export function useAppShell() {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
      // A private window or a blocked worker: the site works the same, only offline start and push are missing.
    });
  }, []);
}
