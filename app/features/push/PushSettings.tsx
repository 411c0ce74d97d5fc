import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { useRootData } from '../../lib/root-data.ts';
import { ApiError } from '../../lib/api.ts';
import { subscribePush, unsubscribePush, usePushState } from './push.ts';

/** Push notifications for this browser: the state and a button to switch them on or off. */
export function PushSettings({ compact = false, bare = false, onChange }: { compact?: boolean; bare?: boolean; onChange?: (state: string) => void }) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const { state, set } = usePushState();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<Parameters<typeof set>[0]>) => {
    setBusy(true);
    setError(null);
    try {
      const next = await action();
      set(next);
      onChange?.(next);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('push_settings.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="push-settings" data-state={state}>
      {!compact && !bare && <h2 className="h5">{t('push_settings.title')}</h2>}
      {!bare && <p className="mb-2" data-testid="push-state-text">{t(`push_settings.state_${state}`)}</p>}
      {state === 'not_subscribed' && (
        <Button onClick={() => run(() => subscribePush(settings.push_public_key))} disabled={busy} data-testid="push-enable">
          {busy && <Spinner size="sm" className="me-2" />}{t('push_settings.enable')}
        </Button>
      )}
      {state === 'subscribed' && (
        <Button variant="outline-secondary" onClick={() => run(unsubscribePush)} disabled={busy} data-testid="push-disable">
          {busy && <Spinner size="sm" className="me-2" />}{t('push_settings.disable')}
        </Button>
      )}
      {error && <Alert variant="danger" className="mt-2 mb-0" data-testid="push-error">{error}</Alert>}
    </div>
  );
}
