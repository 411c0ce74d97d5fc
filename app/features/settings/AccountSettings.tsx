import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { mailChangeSchema, passwordChangeSchema } from '#common/schemas.ts';
import { AppForm, FieldError, FormError, fieldProps, useAppForm } from '../../lib/forms.tsx';

/** Change the e-mail address (confirmed from the new address), change the password, download my data. */
export function AccountSettings({ email, name }: { email: string; name: string | null }) {
  const { t } = useTranslation();
  const mail = useAppForm(mailChangeSchema, { intent: 'mail-change' });
  const sentTo = (mail.done as { email?: string } | undefined)?.email;
  const password = useAppForm(passwordChangeSchema({ email, name }), { intent: 'password-change' });
  const { fields: pw } = password;

  return (
    <Card as="section" className="mb-3" aria-labelledby="account-heading">
      <Card.Body>
        <h2 className="h5" id="account-heading">{t('notifications.account.heading')}</h2>

        <h3 className="h6 mt-3">{t('notifications.account.email_heading')}</h3>
        <p className="small text-muted" data-testid="current-email">{t('notifications.account.current_email', { email })}</p>
        {sentTo && <Alert variant="success" data-testid="mail-change-ok">{t('notifications.account.email_sent', { email: sentTo })}</Alert>}
        <FormError form={mail.form} testId="mail-change-error" />
        <AppForm form={mail.form} intent="mail-change" className="row g-2">
          <Form.Group className="col-md-6" controlId="mail-change-email">
            <Form.Label>{t('notifications.account.new_email')}</Form.Label>
            <Form.Control {...fieldProps(mail.fields.email)} type="email" autoComplete="email" required />
            <FieldError field={mail.fields.email} testId="mail-change-email-error" />
          </Form.Group>
          <Form.Group className="col-md-6" controlId="mail-change-password">
            <Form.Label>{t('notifications.account.password')}</Form.Label>
            <Form.Control {...fieldProps(mail.fields.password)} type="password" autoComplete="current-password" required />
            <FieldError field={mail.fields.password} testId="mail-change-password-error" />
          </Form.Group>
          <div className="col-12"><Button type="submit" variant="outline-primary" disabled={mail.busy} data-testid="mail-change-submit">{t('notifications.account.email_submit')}</Button></div>
        </AppForm>

        <h3 className="h6 mt-4">{t('notifications.account.password_heading')}</h3>
        {password.done && <Alert variant="success" data-testid="password-change-ok">{t('notifications.account.password_changed')}</Alert>}
        <FormError form={password.form} testId="password-change-error" />
        <AppForm form={password.form} intent="password-change" className="row g-2">
          <Form.Group className="col-md-4" controlId="old-password">
            <Form.Label>{t('notifications.account.old_password')}</Form.Label>
            <Form.Control {...fieldProps(pw.old_password)} type="password" autoComplete="current-password" required />
            <FieldError field={pw.old_password} testId="change-old_password-error" />
          </Form.Group>
          <Form.Group className="col-md-4" controlId="new-password">
            <Form.Label>{t('notifications.account.new_password')}</Form.Label>
            <Form.Control {...fieldProps(pw.password)} type="password" autoComplete="new-password" required minLength={8} />
            <FieldError field={pw.password} testId="change-password-error" />
          </Form.Group>
          <Form.Group className="col-md-4" controlId="new-password-confirm">
            <Form.Label>{t('notifications.account.confirm_password')}</Form.Label>
            <Form.Control {...fieldProps(pw.password_confirm)} type="password" autoComplete="new-password" required minLength={8} />
            <FieldError field={pw.password_confirm} testId="change-password_confirm-error" />
          </Form.Group>
          <div className="col-12"><Button type="submit" variant="outline-primary" disabled={password.busy} data-testid="password-change-submit">{t('notifications.account.password_submit')}</Button></div>
        </AppForm>

        <h3 className="h6 mt-4">{t('notifications.account.export')}</h3>
        <p className="small text-muted mb-2">{t('notifications.account.export_help')}</p>
        <a href="/api/export.php" className="btn btn-outline-secondary btn-sm" download data-testid="export-link">{t('notifications.account.export')}</a>
      </Card.Body>
    </Card>
  );
}
