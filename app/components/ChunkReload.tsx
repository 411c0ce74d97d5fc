import { useEffect } from 'react';

const KEY = 'chunk-reload-at';

/** A route chunk that fails to load (after a deploy) reloads the page, at most once per 60 seconds. */
export function ChunkReload() {
  useEffect(() => {
    const onError = (event: PromiseRejectionEvent | ErrorEvent) => {
      const reason = 'reason' in event ? event.reason : event.error;
      const message = String((reason as Error | undefined)?.message ?? '');
      if (!/dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message)) return;
      const last = Number(sessionStorage.getItem(KEY) ?? 0);
      if (Date.now() - last < 60_000) return;
      sessionStorage.setItem(KEY, String(Date.now()));
      window.location.reload();
    };
    window.addEventListener('unhandledrejection', onError);
    window.addEventListener('error', onError);
    return () => {
      window.removeEventListener('unhandledrejection', onError);
      window.removeEventListener('error', onError);
    };
  }, []);
  return null;
}
