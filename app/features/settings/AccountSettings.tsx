import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { mailChangeSchema, passwordChangeSchema } from '#common/schemas.ts';
import { AppForm, FormError, useAppForm } from '../../lib/forms.tsx';

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
          <FormField
            id="mail-change-email" className="col-md-6" label={t('notifications.account.new_email')} field={mail.fields.email}
            errorTestId="mail-change-email-error" type="email" autoComplete="email" required
          />
          <FormField
            id="mail-change-password" className="col-md-6" label={t('notifications.account.password')} field={mail.fields.password}
            errorTestId="mail-change-password-error" type="password" autoComplete="current-password" required
          />
          <div className="col-12"><Button type="submit" variant="outline-primary" disabled={mail.busy} data-testid="mail-change-submit">{t('notifications.account.email_submit')}</Button></div>
        </AppForm>

        <h3 className="h6 mt-4">{t('notifications.account.password_heading')}</h3>
        {password.done && <Alert variant="success" data-testid="password-change-ok">{t('notifications.account.password_changed')}</Alert>}
        <FormError form={password.form} testId="password-change-error" />
        <AppForm form={password.form} intent="password-change" className="row g-2">
          <FormField
            id="old-password" className="col-md-4" label={t('notifications.account.old_password')} field={pw.old_password}
            errorTestId="change-old_password-error" type="password" autoComplete="current-password" required
          />
          <FormField
            id="new-password" className="col-md-4" label={t('notifications.account.new_password')} field={pw.password}
            errorTestId="change-password-error" type="password" autoComplete="new-password" required minLength={8}
          />
          <FormField
            id="new-password-confirm" className="col-md-4" label={t('notifications.account.confirm_password')} field={pw.password_confirm}
            errorTestId="change-password_confirm-error" type="password" autoComplete="new-password" required minLength={8}
          />
          <div className="col-12"><Button type="submit" variant="outline-primary" disabled={password.busy} data-testid="password-change-submit">{t('notifications.account.password_submit')}</Button></div>
        </AppForm>

        <h3 className="h6 mt-4">{t('notifications.account.export')}</h3>
        <p className="small text-muted mb-2">{t('notifications.account.export_help')}</p>
        <a href="/api/export.php" className="btn btn-outline-secondary btn-sm" download data-testid="export-link">{t('notifications.account.export')}</a>
      </Card.Body>
    </Card>
  );
}
