import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from 'react-router';
import type { useAppForm } from '../../lib/forms.tsx';

/** The offer beside the sign-up's address: the address field points at it, as it says why that address cannot sign up. */
export const SIGNUP_OFFER_ID = 'signup-offer';

type OfferForm = Pick<ReturnType<typeof useAppForm>, 'form' | 'fields' | 'busy'>;

/**
 * Spec section 5: an existing active account is offered log-in, with the address filled in. Its
 * fields post the log-in form (the /login action, as the log-in page does); a wrong password comes
 * back here, a right one signs in and opens the members area.
 */
export function LoginOffer({ email, offer }: { email: string; offer: OfferForm }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const { form, fields, busy } = offer;
  const error = form.errors?.[0] ?? fields.email.errors?.[0] ?? fields.password.errors?.[0];
  return (
    <Alert variant="warning" id={SIGNUP_OFFER_ID} data-testid="signup-login-offer">
      <p className="mb-2">{t('signup_flow.email_taken_offer')}</p>
      <Form.Control form={form.id} name="email" readOnly value={email} className="mb-2" aria-label={t('fields.email')} data-testid="signup-login-email" />
      <Form.Control
        form={form.id} name="password" type="password" autoComplete="current-password" placeholder={t('fields.password')} aria-label={t('fields.password')}
        value={password} onChange={(e) => setPassword(e.target.value)} className="mb-2" data-testid="signup-login-password"
      />
      {error && <div className="text-danger small mb-2" data-testid="signup-login-error">{error}</div>}
      <Button type="submit" form={form.id} disabled={busy} data-testid="signup-login-submit">{t('signup_flow.login_instead')}</Button>{' '}
      <Link to={`/login?email=${encodeURIComponent(email)}`} className="btn btn-link">{t('signup_flow.login_page')}</Link>
    </Alert>
  );
}

/**
 * Spec section 5: a deleted, not yet final account is offered reactivation by mail or customer
 * service. The button posts the reactivation form (intent `reactivate`) to the sign-up action.
 */
export function ReactivateOffer({ email, offer }: { email: string; offer: OfferForm & { done?: unknown } }) {
  const { t } = useTranslation();
  const { form, fields, busy, done } = offer;
  const error = form.errors?.[0] ?? fields.email.errors?.[0];
  return (
    <Alert variant="warning" id={SIGNUP_OFFER_ID} data-testid="signup-reactivate-offer">
      <p className="mb-2">{t('errors.account_deleted')}</p>
      {done ? (
        <p className="mb-0 fw-semibold" data-testid="signup-reactivate-sent">{t('signup_flow.reactivation_sent', { email })}</p>
      ) : (
        <>
          <input type="hidden" form={form.id} name="email" value={email} />
          <Button type="submit" form={form.id} disabled={busy} data-testid="signup-reactivate">{t('signup_flow.reactivate')}</Button>{' '}
          <Link to="/pages/service" className="btn btn-link" data-testid="signup-service">{t('signup_flow.customer_service')}</Link>
          {error && <div className="text-danger small mt-2">{error}</div>}
        </>
      )}
    </Alert>
  );
}
