import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../lib/i18n.ts';
import { Link, redirect, redirectDocument } from 'react-router';
import type { Route } from './+types/login';
import { loginSchema } from '#common/schemas.ts';
import { requestContext } from '../context.ts';
import { safeRedirect } from '../lib/safe-redirect.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { FormField } from '../components/FormField.tsx';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { submitForm } from '#server/http/forms.server.ts';
import { logIn } from '#server/http/session-cookies.ts';

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(requestContext).userId) throw redirect('/members');
  return null;
}

/** The same log-in as POST /api/user.php; the new session's first page loads afresh. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const jar = requestCookieJar(request);
  return submitForm(ctx, await request.formData(), loginSchema, async (input) => {
    await logIn(jar, ctx, input, request.headers.get('user-agent') ?? undefined);
    return redirectDocument(safeRedirect(new URL(request.url).searchParams.get('redirect'), '/members'), { headers: jar.headers });
  }, { limits: ctx.services.rateLimits.login });
}

export default function Login() {
  const { t } = useTranslation();
  const { form, fields, busy } = useAppForm(loginSchema);
  // A wrong address and a wrong password read the same, at the top of the form.
  const fieldError = fields.email.errors?.[0] ?? fields.password.errors?.[0];

  return (
    <div className="container py-5 max-w-460">
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 mb-3">{t('login.title')}</h1>
          <FormError form={form} testId="login-error" />
          {!form.errors?.length && fieldError && <div className="alert alert-danger" role="alert" id="login-field-error" data-testid="login-error">{fieldError}</div>}
          <AppForm form={form}>
            <FormField id="login-email" className="mb-3" label={t('fields.email')} field={fields.email} errorShownIn="login-field-error" type="email" autoComplete="username" required />
            <FormField id="login-password" className="mb-3" label={t('fields.password')} field={fields.password} errorShownIn="login-field-error" type="password" autoComplete="current-password" required />
            <Button type="submit" className="w-100" disabled={busy} data-testid="login-submit">{t('login.submit')}</Button>
          </AppForm>
          <p className="mt-3 mb-0 text-center"><Link to="/reset-password" data-testid="forgot-password">{t('login.forgot_password')}</Link></p>
          <p className="mt-3 mb-0 text-center">
            {t('login.no_account')} <Link to="/signup">{t('login.signup_link')}</Link>
          </p>
        </Card.Body>
      </Card>
    </div>
  );
}
