import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/reset-password';
import { passwordResetRequestSchema } from '#common/schemas.ts';
import { requestContext } from '../context.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { FormField } from '../components/FormField.tsx';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { submitForm } from '#server/http/forms.server.ts';
import { requestPasswordReset } from '#server/http/session-cookies.ts';

/** The same request as POST /api/password-reset.php: the link goes to the address. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const jar = requestCookieJar(request);
  return submitForm(ctx, await request.formData(), passwordResetRequestSchema, async ({ email }) => {
    await requestPasswordReset(jar, ctx, email);
    return { sentTo: email };
  }, { limits: ctx.services.rateLimits.mail });
}

/** Step 1 of the password reset: the e-mail address. */
export default function ResetPassword() {
  const { t } = useTranslation();
  const { form, fields, busy, done } = useAppForm(passwordResetRequestSchema);
  const sentTo = (done as { sentTo?: string } | undefined)?.sentTo;
  return (
    <div className="container py-5 max-w-460">
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3 mb-3">{t('reset_password.title')}</h1>
        {sentTo ? (
          <Alert variant="success" data-testid="reset-sent">{t('reset_password.sent', { email: sentTo })}</Alert>
        ) : (
          <>
            <p>{t('reset_password.intro')}</p>
            <FormError form={form} testId="reset-error" />
            <AppForm form={form}>
              <FormField
                id="reset-email" className="mb-3" label={t('fields.email')} field={fields.email} errorTestId="reset-email-error"
                type="email" autoComplete="email" required
              />
              <Button type="submit" className="w-100" disabled={busy} data-testid="reset-submit">{t('reset_password.submit')}</Button>
            </AppForm>
          </>
        )}
        <p className="mt-3 mb-0 text-center"><Link to="/login">{t('reset_password.to_login')}</Link></p>
      </Card.Body></Card>
    </div>
  );
}
