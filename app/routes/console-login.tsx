import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { data, Form, redirect, redirectDocument, useActionData, useNavigation } from 'react-router';
import { consoleCodeSchema, consolePasswordSchema } from '#common/console.ts';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { consoleErrorText, consoleRelyingParty } from '#server/http/console-pages.server.ts';
import { setStaffCookie } from '#server/http/staff-cookies.ts';
import type { Route } from './+types/console-login';
import { requestContext } from '../context.ts';
import { PasskeyButton } from '../features/console/PasskeyButton.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

/** Refusals the sign-in words its own way (a wrong code is not a wrong password). */
const OWN_ERRORS = ['login_failed', 'login_throttled', 'code_failed'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  if (await context.get(requestContext).staff()) throw redirect('/console');
  return null;
}

type Reply = { step: 'password' | 'code'; challenge?: string; passkey?: PublicKeyCredentialRequestOptionsJSON | null; error?: string; code?: string };

/**
 * Two steps, as the use case has them: the password gives a signed five-minute challenge, carried in the second
 * form; the challenge and a TOTP or recovery code, or a passkey of this domain, give the session's cookie. Errors come
 * back in the visitor's language.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const form = Object.fromEntries(await request.formData());
  const from = { ip: ctx.clientIp };
  const t = (key: string) => ctx.translator.t(ctx.lang, key);
  const signedIn = (token: string) => {
    const jar = requestCookieJar(request);
    setStaffCookie(jar, ctx, token);
    return redirectDocument('/console', { headers: jar.headers });
  };
  if (form.intent === 'passkey') {
    const challenge = typeof form.challenge === 'string' ? form.challenge : '';
    try {
      const { token } = await ctx.services.staff.finishSignInWithPasskey(challenge, form.credential, { ...from, rp: consoleRelyingParty(ctx) });
      return signedIn(token);
    } catch (error) {
      const refusal = consoleErrorText(ctx, ctx.lang, error, OWN_ERRORS);
      const message = refusal.code === 'login_failed' ? t('console.errors.passkey_failed') : refusal.message;
      // The password step's options are spent with its challenge: signing in starts over.
      return data<Reply>({ step: 'password', error: message, code: refusal.code }, refusal.code === 'login_throttled' ? 429 : 401);
    }
  }
  if (form.intent === 'code') {
    const parsed = consoleCodeSchema.safeParse(form);
    const challenge = typeof form.challenge === 'string' ? form.challenge : '';
    if (!parsed.success) return data<Reply>({ step: 'code', challenge, passkey: passkeyOptions(form.passkey), error: t(parsed.error.issues[0].message.startsWith('console.') ? parsed.error.issues[0].message : 'console.errors.code_required') }, 400);
    try {
      const { token } = await ctx.services.staff.finishSignIn(parsed.data.challenge, parsed.data.code, from);
      return signedIn(token);
    } catch (error) {
      const refusal = consoleErrorText(ctx, ctx.lang, error, OWN_ERRORS);
      // A wrong code reads as one: the password was right, or there would be no challenge.
      const message = refusal.code === 'login_failed' ? t('console.errors.code_failed') : refusal.message;
      return data<Reply>({ step: 'code', challenge, passkey: passkeyOptions(form.passkey), error: message, code: refusal.code }, refusal.code === 'login_throttled' ? 429 : 401);
    }
  }
  const parsed = consolePasswordSchema.safeParse(form);
  if (!parsed.success) return data<Reply>({ step: 'password', error: t(parsed.error.issues[0].message) }, 400);
  try {
    const { challenge, passkey } = await ctx.services.staff.startSignIn(parsed.data.email, parsed.data.password, { ...from, rp: consoleRelyingParty(ctx) });
    return data<Reply>({ step: 'code', challenge, passkey });
  } catch (error) {
    const refusal = consoleErrorText(ctx, ctx.lang, error, OWN_ERRORS);
    return data<Reply>({ step: 'password', error: refusal.message, code: refusal.code }, refusal.code === 'login_throttled' ? 429 : 401);
  }
}

/** The passkey options the code form carried back (a wrong code keeps the passkey on offer). */
function passkeyOptions(value: FormDataEntryValue | undefined): PublicKeyCredentialRequestOptionsJSON | null {
  if (typeof value !== 'string' || !value || value.length > 8192) return null;
  try {
    const options = JSON.parse(value) as PublicKeyCredentialRequestOptionsJSON;
    return typeof options?.challenge === 'string' ? options : null;
  } catch {
    return null;
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.login.title', noindex: true });
}

export default function ConsoleLogin() {
  const { t } = useTranslation();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const busy = useNavigation().state !== 'idle';
  const step = reply?.step ?? 'password';
  return (
    <main className="console-login container py-5 max-w-460">
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 mb-1">{t('console.login.title')}</h1>
          <p className="text-body-secondary mb-3">{step === 'password' ? t('console.login.password_intro') : t('console.login.code_intro')}</p>
          {reply?.error && <div className="alert alert-danger" role="alert" id="console-login-error" data-testid="console-login-error">{reply.error}</div>}
          {step === 'password' ? (
            <Form method="post" key="password">
              <input type="hidden" name="intent" value="password" />
              <FormField
                id="console-email" name="email" type="email" className="mb-3" label={t('console.login.email')} autoComplete="username" required autoFocus
                error={reply?.error ?? null} errorShownIn="console-login-error"
              />
              <FormField id="console-password" name="password" type="password" className="mb-3" label={t('console.login.password')} autoComplete="current-password" required />
              <Button type="submit" className="w-100" disabled={busy} data-testid="console-login-next">{t('console.login.next')}</Button>
            </Form>
          ) : (
            <>
              {reply?.passkey && (
                <div className="mb-3">
                  <PasskeyButton
                    ceremony={{ kind: 'sign_in', options: reply.passkey }} fields={{ intent: 'passkey', challenge: reply.challenge ?? '' }}
                    label={t('console.passkeys.sign_in')} testId="console-passkey-sign-in" variant="primary"
                  />
                  <p className="text-center text-body-secondary small mt-3 mb-0">{t('console.passkeys.or_code')}</p>
                </div>
              )}
              <Form method="post" key="code">
                <input type="hidden" name="intent" value="code" />
                <input type="hidden" name="challenge" value={reply?.challenge ?? ''} />
                {reply?.passkey && <input type="hidden" name="passkey" value={JSON.stringify(reply.passkey)} />}
                <FormField
                  id="console-code" name="code" className="mb-3" label={t('console.login.code')} autoComplete="one-time-code" inputMode="text" required autoFocus
                  description={t('console.login.code_help')} descriptionProps={{ as: 'div' }} error={reply?.error ?? null} errorShownIn="console-login-error"
                />
                <Button type="submit" className="w-100" disabled={busy} data-testid="console-login-submit">{t('console.login.submit')}</Button>
                <p className="mt-3 mb-0 text-center"><a href="/console/login">{t('console.login.start_over')}</a></p>
              </Form>
            </>
          )}
        </Card.Body>
      </Card>
    </main>
  );
}
