import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link, useSearchParams } from 'react-router';
import { useRootData } from '../lib/root-data.ts';
import { api, ApiError } from '../lib/api.ts';

/** An activation (or reactivation) link that did not work: what to do next. */
export default function ActivateError() {
  const { t } = useTranslation();
  const { user } = useRootData();
  const [params] = useSearchParams();
  const [state, setState] = useState<{ ok?: boolean; error?: string }>({});
  const reactivation = params.get('reason') === 'reactivation';
  const resend = async () => {
    try {
      await api('/api/activation-mail.php', { method: 'POST', body: {}, retries: 0 });
      setState({ ok: true });
    } catch (e) {
      setState({ error: e instanceof ApiError ? e.message : t('errors.server_error') });
    }
  };
  return (
    <div className="container py-5 max-w-560">
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3" data-testid="activate-error">{t('activate.error_title')}</h1>
        <p>{reactivation ? t('activate.reactivation_error_text') : t('activate.error_text')}</p>
        {state.ok && <Alert variant="success">{t('activate.resent')}</Alert>}
        {state.error && <Alert variant="danger">{state.error}</Alert>}
        {reactivation ? (
          <Link to="/signup" className="btn btn-primary">{t('login.signup_link')}</Link>
        ) : user ? (
          user.status === 'not_confirmed' && <Button onClick={() => void resend()} disabled={state.ok} data-testid="resend-activation">{t('activate.resend')}</Button>
        ) : (
          <Link to="/login" className="btn btn-primary">{t('activate.to_login')}</Link>
        )}
      </Card.Body></Card>
    </div>
  );
}
