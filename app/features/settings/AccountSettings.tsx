import { useState } from 'react';
import { Alert, Button, Card, Form } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { passwordProblem } from '#common/passwords.ts';
import { api, ApiError } from '../../lib/api.ts';
import { useHydrated } from '../../lib/hydrated.ts';

type Result = { ok: string } | { error: string } | null;

function Feedback({ result, testId }: { result: Result; testId: string }) {
  if (!result) return null;
  return 'ok' in result
    ? <Alert variant="success" data-testid={`${testId}-ok`}>{result.ok}</Alert>
    : <Alert variant="danger" data-testid={`${testId}-error`}>{result.error}</Alert>;
}

/** Change the e-mail address (confirmed from the new address), change the password, download my data. */
export function AccountSettings({ email }: { email: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [mailResult, setMailResult] = useState<Result>(null);
  const [passwordResult, setPasswordResult] = useState<Result>(null);
  const [passwordErrors, setPasswordErrors] = useState<Partial<Record<'old_password' | 'password' | 'password_confirm', string>>>({});

  const run = async (set: (r: Result) => void, work: () => Promise<string>, form: HTMLFormElement) => {
    set(null);
    try {
      set({ ok: await work() });
      form.reset();
    } catch (e) {
      set({ error: e instanceof ApiError ? e.message : t('errors.server_error') });
    }
  };

  const changeEmail = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const newEmail = String(f.get('email') ?? '');
    void run(setMailResult, async () => {
      await api('/api/mail-change.php', { method: 'POST', body: { email: newEmail, password: f.get('password') }, retries: 0 });
      return t('notifications.account.email_sent', { email: newEmail });
    }, e.currentTarget);
  };

  const changePassword = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const password = String(f.get('password') ?? '');
    // The shared rule first (the server also knows the name and the list of common passwords).
    const problem = passwordProblem(password, { email });
    const mismatch = !problem && password !== f.get('password_confirm');
    setPasswordErrors(problem ? { password: t(problem) } : mismatch ? { password_confirm: t('errors.passwords_mismatch') } : {});
    setPasswordResult(null);
    if (problem || mismatch) return;
    void (async () => {
      try {
        await api('/api/password.php', { method: 'PUT', body: { old_password: f.get('old_password'), password, password_confirm: f.get('password_confirm') }, retries: 0 });
        setPasswordResult({ ok: t('notifications.account.password_changed') });
        form.reset();
      } catch (err) {
        if (err instanceof ApiError && Object.keys(err.details).length) setPasswordErrors(err.details);
        else setPasswordResult({ error: err instanceof ApiError ? err.message : t('errors.server_error') });
      }
    })();
  };

  const passwordField = (name: 'old_password' | 'password' | 'password_confirm') => ({
    name, isInvalid: Boolean(passwordErrors[name]), 'aria-describedby': `${name}-change-error`,
  });
  const passwordFeedback = (name: 'old_password' | 'password' | 'password_confirm') => (
    <Form.Control.Feedback type="invalid" id={`${name}-change-error`} data-testid={`change-${name}-error`}>{passwordErrors[name]}</Form.Control.Feedback>
  );

  return (
    <Card as="section" className="mb-3" aria-labelledby="account-heading">
      <Card.Body>
        <h2 className="h5" id="account-heading">{t('notifications.account.heading')}</h2>

        <h3 className="h6 mt-3">{t('notifications.account.email_heading')}</h3>
        <p className="small text-muted" data-testid="current-email">{t('notifications.account.current_email', { email })}</p>
        <Feedback result={mailResult} testId="mail-change" />
        <Form onSubmit={changeEmail} noValidate className="row g-2">
          <Form.Group className="col-md-6" controlId="mail-change-email">
            <Form.Label>{t('notifications.account.new_email')}</Form.Label>
            <Form.Control name="email" type="email" autoComplete="email" required />
          </Form.Group>
          <Form.Group className="col-md-6" controlId="mail-change-password">
            <Form.Label>{t('notifications.account.password')}</Form.Label>
            <Form.Control name="password" type="password" autoComplete="current-password" required />
          </Form.Group>
          <div className="col-12"><Button type="submit" variant="outline-primary" disabled={!hydrated} data-testid="mail-change-submit">{t('notifications.account.email_submit')}</Button></div>
        </Form>

        <h3 className="h6 mt-4">{t('notifications.account.password_heading')}</h3>
        <Feedback result={passwordResult} testId="password-change" />
        <Form onSubmit={changePassword} noValidate className="row g-2">
          <Form.Group className="col-md-4" controlId="old-password">
            <Form.Label>{t('notifications.account.old_password')}</Form.Label>
            <Form.Control {...passwordField('old_password')} type="password" autoComplete="current-password" required />
            {passwordFeedback('old_password')}
          </Form.Group>
          <Form.Group className="col-md-4" controlId="new-password">
            <Form.Label>{t('notifications.account.new_password')}</Form.Label>
            <Form.Control {...passwordField('password')} type="password" autoComplete="new-password" required minLength={8} />
            {passwordFeedback('password')}
          </Form.Group>
          <Form.Group className="col-md-4" controlId="new-password-confirm">
            <Form.Label>{t('notifications.account.confirm_password')}</Form.Label>
            <Form.Control {...passwordField('password_confirm')} type="password" autoComplete="new-password" required minLength={8} />
            {passwordFeedback('password_confirm')}
          </Form.Group>
          <div className="col-12"><Button type="submit" variant="outline-primary" disabled={!hydrated} data-testid="password-change-submit">{t('notifications.account.password_submit')}</Button></div>
        </Form>

        <h3 className="h6 mt-4">{t('notifications.account.export')}</h3>
        <p className="small text-muted mb-2">{t('notifications.account.export_help')}</p>
        <a href="/api/export.php" className="btn btn-outline-secondary btn-sm" download data-testid="export-link">{t('notifications.account.export')}</a>
      </Card.Body>
    </Card>
  );
}
