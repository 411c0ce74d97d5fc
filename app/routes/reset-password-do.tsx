import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/reset-password-do';
import { passwordResetSchema } from '#common/schemas.ts';
import { requestContext } from '../context.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { FormField } from '../components/FormField.tsx';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { submitForm } from '#server/http/forms.server.ts';
import { resetPassword } from '#server/http/session-cookies.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const token = url.searchParams.get('token') ?? '';
  // Checked, not used up: the token is spent only when the new password is saved.
  return { token, valid: await ctx.services.lifecycle.tokenIsValid(token, 'password_reset') };
}

/** The same reset as PUT /api/password-reset.php: every session ends, this device is remembered. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const jar = requestCookieJar(request);
  return submitForm(ctx, await request.formData(), passwordResetSchema, async (input) => {
    await resetPassword(jar, ctx, input.token, input.password, input.password_confirm);
  }, { limits: ctx.services.rateLimits.links, headers: jar.headers });
}

/** Step 2 of the password reset: two new passwords that must match. */
export default function ResetPasswordDo({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { form, fields, busy, done, errorCode } = useAppForm(passwordResetSchema);
  const invalid = !loaderData.valid || errorCode === 'reset_link_invalid' || Boolean(fields.token.errors);
  return (
    <div className="container py-5 max-w-460">
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
          <AppForm form={form}>
            <FormError form={form} testId="reset-error" />
            <input type="hidden" name="token" value={loaderData.token} />
            <FormField
              id="reset-password" className="mb-3" label={t('notifications.account.new_password')} field={fields.password} errorTestId="reset-password-error"
              type="password" autoComplete="new-password" required minLength={8}
            />
            <FormField
              id="reset-password-confirm" className="mb-3" label={t('notifications.account.confirm_password')} field={fields.password_confirm}
              errorTestId="reset-password-confirm-error" type="password" autoComplete="new-password" required minLength={8}
            />
            <Button type="submit" className="w-100" disabled={busy} data-testid="reset-do-submit">{t('reset_password.do_submit')}</Button>
          </AppForm>
        )}
      </Card.Body></Card>
    </div>
  );
}
