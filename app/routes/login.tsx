import { useState } from 'react';
import { Alert, Button, Card, Form } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link, redirect, useSearchParams } from 'react-router';
import type { Route } from './+types/login';
import { requestContext } from '../context.ts';
import { api, ApiError } from '../lib/api.ts';
import { useHydrated } from '../lib/hydrated.ts';

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(requestContext).userId) throw redirect('/members');
  return null;
}

/** Only same-site paths are followed after log-in. */
export function safeRedirect(to: string | null, fallback = '/members'): string {
  return to && to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/\\') ? to : fallback;
}

export default function Login() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Forms submit through the API; until the page is interactive the button waits.
  const hydrated = useHydrated();

  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await api('/api/user.php', { method: 'POST', body: { email: form.get('email'), password: form.get('password') }, retries: 0 });
      window.location.assign(safeRedirect(params.get('redirect')));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setBusy(false);
    }
  };

  return (
    <div className="container py-5" style={{ maxWidth: 460 }}>
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 mb-3">{t('login.title')}</h1>
          {error && <Alert variant="danger" data-testid="login-error">{error}</Alert>}
          <Form method="post" onSubmit={submit} noValidate>
            <Form.Group className="mb-3" controlId="login-email">
              <Form.Label>{t('fields.email')}</Form.Label>
              <Form.Control name="email" type="email" autoComplete="username" required />
            </Form.Group>
            <Form.Group className="mb-3" controlId="login-password">
              <Form.Label>{t('fields.password')}</Form.Label>
              <Form.Control name="password" type="password" autoComplete="current-password" required />
            </Form.Group>
            <Button type="submit" className="w-100" disabled={busy || !hydrated} data-testid="login-submit">{t('login.submit')}</Button>
          </Form>
          <p className="mt-3 mb-0 text-center"><Link to="/reset-password" data-testid="forgot-password">{t('login.forgot_password')}</Link></p>
          <p className="mt-3 mb-0 text-center">
            {t('login.no_account')} <Link to="/signup">{t('login.signup_link')}</Link>
          </p>
        </Card.Body>
      </Card>
    </div>
  );
}
