import { useState } from 'react';
import { Alert, Button, Card, Form } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/reset-password-do';
import { passwordProblem } from '#common/passwords.ts';
import { requestContext } from '../context.ts';
import { api, ApiError } from '../lib/api.ts';
import { useHydrated } from '../lib/hydrated.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const token = url.searchParams.get('token') ?? '';
  // Checked, not used up: the token is spent only when the new password is saved.
  return { token, valid: await ctx.services.lifecycle.tokenIsValid(token, 'password_reset') };
}

/** Step 2 of the password reset: two new passwords that must match. */
export default function ResetPasswordDo({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<'password' | 'password_confirm', string>>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password') ?? '');
    // The shared rule first; the list of common passwords is checked by the server.
    const problem = passwordProblem(password);
    const mismatch = !problem && password !== form.get('password_confirm');
    setFieldErrors(problem ? { password: t(problem) } : mismatch ? { password_confirm: t('errors.passwords_mismatch') } : {});
    setError(null);
    if (problem || mismatch) return;
    setBusy(true);
    try {
      await api('/api/password-reset.php', { method: 'PUT', body: { token: loaderData.token, password, password_confirm: form.get('password_confirm') }, retries: 0 });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.details).length) setFieldErrors(err.details);
      else setError(err instanceof ApiError ? { code: err.code, message: err.message } : { code: 'server_error', message: t('errors.server_error') });
    } finally {
      setBusy(false);
    }
  };
  const invalid = !loaderData.valid || error?.code === 'reset_link_invalid';
  return (
    <div className="container py-5" style={{ maxWidth: 460 }}>
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3 mb-3">{t('reset_password.do_title')}</h1>
        {done ? (
          <>
            <Alert variant="success" data-testid="reset-done">{t('reset_password.done')}</Alert>
            <Link to="/login" className="btn btn-primary w-100">{t('reset_password.to_login')}</Link>
          </>
        ) : invalid ? (
          <>
            <Alert variant="danger" data-testid="reset-error">{t('errors.reset_link_invalid')}</Alert>
            <Link to="/reset-password" className="btn btn-primary w-100">{t('reset_password.request_new')}</Link>
          </>
        ) : (
          <Form onSubmit={submit} noValidate>
            {error && <Alert variant="danger" data-testid="reset-error">{error.message}</Alert>}
            <Form.Group className="mb-3" controlId="reset-password">
              <Form.Label>{t('notifications.account.new_password')}</Form.Label>
              <Form.Control name="password" type="password" autoComplete="new-password" required minLength={8} isInvalid={Boolean(fieldErrors.password)} aria-describedby="reset-password-error" />
              <Form.Control.Feedback type="invalid" id="reset-password-error" data-testid="reset-password-error">{fieldErrors.password}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group className="mb-3" controlId="reset-password-confirm">
              <Form.Label>{t('notifications.account.confirm_password')}</Form.Label>
              <Form.Control name="password_confirm" type="password" autoComplete="new-password" required minLength={8} isInvalid={Boolean(fieldErrors.password_confirm)} aria-describedby="reset-password-confirm-error" />
              <Form.Control.Feedback type="invalid" id="reset-password-confirm-error" data-testid="reset-password-confirm-error">{fieldErrors.password_confirm}</Form.Control.Feedback>
            </Form.Group>
            <Button type="submit" className="w-100" disabled={busy || !hydrated} data-testid="reset-do-submit">{t('reset_password.do_submit')}</Button>
          </Form>
        )}
      </Card.Body></Card>
    </div>
  );
}
