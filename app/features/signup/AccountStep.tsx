import { useEffect, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, useFetcher, useSearchParams } from 'react-router';
import { run as suggestEmail } from '@zootools/email-spell-checker';
import type { ApiUser, ProfileSummary } from '#common/api-types.ts';
import { GENDERS } from '#common/constants.ts';
import { signupBody } from '#common/contracts/accounts.ts';
import { loginSchema, reactivateSchema } from '#common/schemas.ts';
import { nicheSignupDefaults } from '#common/site-theme.ts';
import { TRACKING_KEYS } from '#common/tracking.ts';
import { AppForm, FormError, useAppForm } from '../../lib/forms.tsx';
import { useHydrated } from '../../lib/hydrated.ts';
import { useRootData } from '../../lib/root-data.ts';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';
import { LoginOffer, ReactivateOffer, SIGNUP_OFFER_ID } from './SignupOffers.tsx';
import { useSignupCountries } from './signup-countries.ts';
import { clearPendingLikes, readPendingLikes } from '../landers/pending-likes.ts';

type SignupMessage = { status: 'sent'; conversation_id: number } | { status: 'draft' | 'failed'; code: string };
/** The first message to a member sent with the sign-up: what became of it, and its text. */
export interface FirstMessage { result: SignupMessage; text: string }
/** What the sign-up action answers a form that continues in place (app/routes/signup.tsx, through the sign-up use case). */
interface SignupResult { user: ApiUser; signup_message?: SignupMessage }

/** Spec section 4: signups = all; with_trafficsource needs a (stored) network; otherwise invite-only. */
function useSignupInvited(): boolean {
  const { settings, trafficsource } = useRootData();
  const [params] = useSearchParams();
  return settings.signups === 'all' || (settings.signups === 'with_trafficsource' && (trafficsource || Boolean(params.get('network'))));
}

/**
 * Step 0: the account (and a first message, in a member's context). One form for the page and the modal,
 * posted to the sign-up action with the same schema as POST /api/signup.php; an address in use is answered
 * by an offer to log in or to reactivate (SignupOffers.tsx).
 */
export function AccountStep({ profile, variant, onStarted, onDone }: {
  profile: ProfileSummary | null; variant: 'modal' | 'page'; onStarted: () => void;
  onDone: (u: ApiUser, m: FirstMessage | null) => void;
}) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const [params] = useSearchParams();
  const invited = useSignupInvited();
  const hydrated = useHydrated();
  const countries = useSignupCountries();
  // The schema of POST /api/signup.php; the page action checks it again and runs the same use case.
  const schema = useMemo(() => signupBody(new Date()), []);
  const fetcher = useFetcher<unknown>();
  const { form, fields, busy, done, errorCode } = useAppForm(schema, { intent: 'signup', fetcher });
  const loginFetcher = useFetcher<unknown>();
  const login = useAppForm(loginSchema, { fetcher: loginFetcher });
  const reactivateFetcher = useFetcher<unknown>();
  const reactivate = useAppForm(reactivateSchema, { intent: 'reactivate', fetcher: reactivateFetcher });
  const [email, setEmail] = useState(() => String(fields.email.initialValue ?? ''));
  const [suggestion, setSuggestion] = useState<string | null>(null);
  // An offer answers the address that was sent; typing another one puts it away.
  const [offerDismissed, setOfferDismissed] = useState(false);
  useEffect(() => setOfferDismissed(false), [fetcher.data]);
  const started = useRef(false);
  // The modal posts to /signup from whatever page it is on; the sign-up pages to their own action.
  const action = variant === 'modal' ? '/signup' : undefined;

  // Likes given on the swipe lander before the account existed go along and become the new member's (stored in this browser).
  const [pendingLikes, setPendingLikes] = useState<number[]>([]);
  useEffect(() => setPendingLikes(readPendingLikes()), []);
  const result = done as SignupResult | undefined;
  const reported = useRef<SignupResult | null>(null);
  const messageText = String(fields.signup_message.initialValue ?? '');
  useEffect(() => {
    if (!result || reported.current === result) return;
    reported.current = result;
    clearPendingLikes();
    onDone(result.user, result.signup_message ? { result: result.signup_message, text: messageText } : null);
  }, [result, messageText, onDone]);

  const touched = () => {
    if (!started.current) {
      started.current = true;
      onStarted();
    }
  };
  const checkSuggestion = (value: string) => {
    const s = value.includes('@') ? suggestEmail({ email: value.trim() }) : undefined;
    setSuggestion(s && s.full !== value.trim().toLowerCase() ? s.full : null);
  };

  if (!invited) return <Alert variant="info" data-testid="signup-disabled">{t('errors.signup_disabled')}</Alert>;

  const reactivated = reactivate.done as { email: string } | undefined;
  const offer = reactivated ? 'reactivate'
    : offerDismissed ? null
    : errorCode === 'email_taken' ? 'login'
    : errorCode === 'account_deleted' ? 'reactivate'
    : null;
  const tracking = TRACKING_KEYS.flatMap((k) => { const v = params.get(k); return v ? [[k, v] as const] : []; });

  return (
    <>
      <AppForm form={form} intent="signup" fetcher={fetcher} action={action} revalidate={false} data-testid="signup-form">
        {/* With JavaScript the next steps follow in place; without it the action signs in and moves on. */}
        {hydrated && <input type="hidden" name="steps" value="in-place" />}
        {tracking.map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
        {pendingLikes.map((id) => <input key={id} type="hidden" name="pending_likes" value={id} />)}
        {profile && (
          <div className="d-flex gap-3 align-items-start mb-3" data-testid="signup-member">
            <input type="hidden" name="profile_id" value={profile.id} />
            <div className="signup-member-photo flex-shrink-0"><ProfilePhoto profile={profile} className="rounded" /></div>
            <FormField
              id="signup-message" as="textarea" className="flex-grow-1" label={t('signup_flow.message_label', { name: profile.name })} labelClassName="fw-semibold"
              field={fields.signup_message} description={t('signup_flow.message_note')}
              rows={3} placeholder={t('signup_flow.message_placeholder')} onInput={touched}
            />
          </div>
        )}
        <FormError form={form} testId="signup-error" />
        <FormField
          id="signup-email" className="mb-3" label={t('fields.email')} field={fields.email} required
          // An address in use is answered by the offer below, not a second message.
          errorShownIn={offer ? SIGNUP_OFFER_ID : undefined}
          description={suggestion && (
            <>
              {t('signup_flow.did_you_mean')}{' '}
              <Button variant="link" className="p-0 align-baseline" onClick={() => { setEmail(suggestion); setSuggestion(null); }} data-testid="email-suggestion-apply">
                {suggestion}
              </Button>
              ?
            </>
          )}
          descriptionProps={{ as: 'div', 'data-testid': 'email-suggestion' }}
          type="email" autoComplete="email" value={email} onInput={touched}
          onChange={(e) => {
            setEmail(e.target.value);
            setOfferDismissed(true);
            if (suggestion) checkSuggestion(e.target.value);
          }}
          onBlur={(e) => checkSuggestion(e.target.value)}
        />
        {offer === 'login' && <LoginOffer email={email} offer={login} />}
        {offer === 'reactivate' && <ReactivateOffer email={reactivated?.email ?? email} offer={reactivate} />}
        <FormField id="signup-name" className="mb-3" label={t('fields.name')} field={fields.name} required autoComplete="nickname" onInput={touched} />
        <FormField id="signup-password" className="mb-3" label={t('fields.password')} field={fields.password} required type="password" autoComplete="new-password" onInput={touched} />
        <Row>
          <Col sm={6}>
            <FormField id="signup-dob" className="mb-3" label={t('fields.date_of_birth')} field={fields.date_of_birth} required type="date" onInput={touched} />
          </Col>
          <Col sm={6}>
            <FormField
              id="signup-gender" as="select" className="mb-3" label={t('fields.gender')} field={fields.gender} required onInput={touched}
              defaultValue={String(fields.gender.initialValue ?? nicheSignupDefaults(settings.niche).gender ?? '')}
            >
              <option value="" disabled>{t('fields.choose')}</option>
              {GENDERS.map((g) => <option key={g} value={g}>{t(`gender.${g}`)}</option>)}
            </FormField>
          </Col>
        </Row>
        <FormField
          id="signup-country" as="select" className="mb-3" label={t('fields.country')} field={fields.country} required onInput={touched}
          defaultValue={String(fields.country.initialValue ?? settings.geoip_selected_country ?? '')}
        >
          <option value="" disabled>{t('fields.choose')}</option>
          {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
        </FormField>
        <p className="small text-muted">
          {t('signup.terms_notice')} <Link to="/pages/terms">{t('footer.terms')}</Link> · <Link to="/pages/privacy">{t('footer.privacy')}</Link>
        </p>
        <Button type="submit" className="w-100" size="lg" disabled={busy} data-testid="signup-submit">
          {busy && <Spinner size="sm" className="me-2" />}{t('signup.submit')}
        </Button>
      </AppForm>
      {/* The offers' forms: their fields sit beside the address above (form="…"), forms cannot nest. */}
      <AppForm form={login.form} fetcher={loginFetcher} action="/login?redirect=/members" />
      <AppForm form={reactivate.form} intent="reactivate" fetcher={reactivateFetcher} action={action} />
    </>
  );
}
