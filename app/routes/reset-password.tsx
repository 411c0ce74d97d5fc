import { useState } from 'react';
import { Alert, Button, Card, Form } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ApiError } from '../lib/api.ts';
import { useHydrated } from '../lib/hydrated.ts';

/** Step 1 of the password reset: the e-mail address. */
export default function ResetPassword() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '');
    setBusy(true);
    setError(null);
    try {
      await api('/api/password-reset.php', { method: 'POST', body: { email }, retries: 0 });
      setSentTo(email);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="container py-5" style={{ maxWidth: 460 }}>
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3 mb-3">{t('reset_password.title')}</h1>
        {sentTo ? (
          <Alert variant="success" data-testid="reset-sent">{t('reset_password.sent', { email: sentTo })}</Alert>
        ) : (
          <>
            <p>{t('reset_password.intro')}</p>
            {error && <Alert variant="danger" data-testid="reset-error">{error}</Alert>}
            <Form onSubmit={submit} noValidate>
              <Form.Group className="mb-3" controlId="reset-email">
                <Form.Label>{t('fields.email')}</Form.Label>
                <Form.Control name="email" type="email" autoComplete="email" required />
              </Form.Group>
              <Button type="submit" className="w-100" disabled={busy || !hydrated} data-testid="reset-submit">{t('reset_password.submit')}</Button>
            </Form>
          </>
        )}
        <p className="mt-3 mb-0 text-center"><Link to="/login">{t('reset_password.to_login')}</Link></p>
      </Card.Body></Card>
    </div>
  );
}
