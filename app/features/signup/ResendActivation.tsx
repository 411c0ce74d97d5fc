import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../lib/i18n.ts';
import { api, ApiError } from '../../lib/api.ts';

/** Sends the activation mail again (POST /api/activation-mail.php {}). */
export function ResendActivation({ variant = 'outline-primary' }: { variant?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);
  const resend = async () => {
    setState('busy');
    setError(null);
    try {
      await api('/api/activation-mail.php', { method: 'POST', body: {}, retries: 0 });
      setState('sent');
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
      setState('idle');
    }
  };
  if (state === 'sent') return <span className="fw-semibold" data-testid="activation-resent">{t('signup_flow.activation_resent')}</span>;
  return (
    <>
      <Button variant={variant} size="sm" onClick={resend} disabled={state === 'busy'} data-testid="activation-resend">{t('signup_flow.resend')}</Button>
      {error && <div className="text-danger small mt-1" data-testid="activation-error">{error}</div>}
    </>
  );
}
