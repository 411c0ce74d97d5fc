import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Alert } from './Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';

const KEY = 'chunk-reload-at';
const ONCE_PER_MS = 60_000;
/** React Router logs this, then reloads the page, when a route's code fails to load (a deploy replaced it, or the network dropped). */
const ROUTE_MODULE_ERROR = /^Error loading route module/;
const DYNAMIC_IMPORT_ERROR = /dynamically imported module|Importing a module script failed|error loading dynamically/i;

/** Whether a reload for a failed chunk may happen now (none in the last 60 s); if so, it is recorded. */
function mayReload(): boolean {
  const last = Number(sessionStorage.getItem(KEY) ?? 0);
  if (Date.now() - last < ONCE_PER_MS) return false;
  sessionStorage.setItem(KEY, String(Date.now()));
  return true;
}

type NavigateEvent = Event & { navigationType: string; cancelable: boolean };
type NavigationApi = EventTarget;

/**
 * A route chunk that fails to load (after a deploy) reloads the page, at most once per 60 seconds
 * (spec section 8). React Router reloads by itself when a route's code fails; a second failure within a
 * minute would reload again and again, so that reload is stopped and the page says what happened.
 */
export function ChunkReload() {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  /** The member's own reload (the notice's button) is never taken for React Router's automatic one. */
  const asked = useRef(false);
  useEffect(() => {
    let routeFailedAt = 0;
    const consoleError = console.error;
    console.error = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && ROUTE_MODULE_ERROR.test(args[0])) routeFailedAt = Date.now();
      consoleError(...args);
    };
    const navigation = (window as Window & { navigation?: NavigationApi }).navigation;
    const onNavigate = (event: Event) => {
      const e = event as NavigateEvent;
      if (e.navigationType !== 'reload' || asked.current || Date.now() - routeFailedAt > 1000 || !e.cancelable) return;
      if (mayReload()) return;
      e.preventDefault();
      setFailed(true);
    };
    navigation?.addEventListener('navigate', onNavigate);

    const onError = (event: PromiseRejectionEvent | ErrorEvent) => {
      const reason = 'reason' in event ? event.reason : event.error;
      if (!DYNAMIC_IMPORT_ERROR.test(String((reason as Error | undefined)?.message ?? ''))) return;
      if (mayReload()) window.location.reload();
      else setFailed(true);
    };
    window.addEventListener('unhandledrejection', onError);
    window.addEventListener('error', onError);
    return () => {
      console.error = consoleError;
      navigation?.removeEventListener('navigate', onNavigate);
      window.removeEventListener('unhandledrejection', onError);
      window.removeEventListener('error', onError);
    };
  }, []);
  if (!failed) return null;
  return (
    <Alert variant="danger" className="m-0 rounded-0 text-center" data-testid="chunk-failed" role="alert">
      {t('app.chunk_failed')}{' '}
      <Button variant="outline-danger" size="sm" className="ms-2" onClick={() => { asked.current = true; window.location.reload(); }}>{t('app.chunk_reload')}</Button>
    </Alert>
  );
}
