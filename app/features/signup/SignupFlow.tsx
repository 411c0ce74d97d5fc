import { useEffect, useMemo, useRef, useState } from 'react';
import { MailCheck } from 'lucide-react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, useFetcher, useSearchParams } from 'react-router';
import { run as suggestEmail } from '@zootools/email-spell-checker';
import type { ApiUser, ProfileSummary } from '#common/api-types.ts';
import { COUNTRIES, GENDERS } from '#common/constants.ts';
import { signupBody } from '#common/contracts/accounts.ts';
import type { Language } from '#common/languages.ts';
import { ABOUT_MAX_LENGTH, loginSchema, reactivateSchema, SEXUALITIES } from '#common/schemas.ts';
import { AppForm, FieldError, FormError, fieldProps, useAppForm } from '../../lib/forms.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { countryOptions } from '../../lib/format.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { useRootData } from '../../lib/root-data.ts';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';
import { PushSettings } from '../push/PushSettings.tsx';
import { pushCapable } from '../push/push.ts';
import { uploadPhoto } from '../../lib/upload.ts';
import { ResendActivation } from './ResendActivation.tsx';
import { nicheSignupDefaults } from '#common/site-theme.ts';
import { TRACKING_KEYS } from '#common/tracking.ts';

export const SIGNUP_STEPS = ['account', 'photo', 'looking', 'location', 'about', 'push', 'complete'] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

type SignupMessage = { status: 'sent'; conversation_id: number } | { status: 'draft' | 'failed'; code: string };
/** What the sign-up action answers a form that continues in place (server/accounts/sign-up.ts). */
interface SignupResult { user: ApiUser; signup_message?: SignupMessage }

/** Spec section 4: signups = all; with_trafficsource needs a (stored) network; otherwise invite-only. */
export function useSignupInvited(): boolean {
  const { settings, trafficsource } = useRootData();
  const [params] = useSearchParams();
  return settings.signups === 'all' || (settings.signups === 'with_trafficsource' && (trafficsource || Boolean(params.get('network'))));
}

interface Props {
  /** Sign-up in the context of this member: step 0 carries a first message to them. */
  profile?: ProfileSummary | null;
  variant: 'modal' | 'page';
  /** True from the first input until the flow is complete. */
  onProgress?: (inProgress: boolean) => void;
  onStepChange?: (step: SignupStep) => void;
  /** Where the finished flow goes. */
  finishUrl: string;
  /** A signed-in member finishing an earlier sign-up starts after the account step. */
  initialStep?: SignupStep;
  initialUser?: ApiUser | null;
}

/** The sign-up steps: 0 account (and message), 1 photo, 2–4 about me, push opt-in, complete. */
export function SignupFlow({ profile, variant, onProgress, onStepChange, finishUrl, initialStep = 'account', initialUser = null }: Props) {
  const { t } = useTranslation();
  const [step, setStep] = useState<SignupStep>(initialStep);
  const [user, setUser] = useState<ApiUser | null>(initialUser);
  const [message, setMessage] = useState<{ result: SignupMessage; text: string } | null>(null);
  const index = SIGNUP_STEPS.indexOf(step);

  const root = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // A new step starts at its top, also on a long page on a small screen.
    if (!first.current && variant === 'page') root.current?.closest('.card')?.scrollIntoView({ block: 'start' });
    first.current = false;
  }, [step, variant]);
  useEffect(() => {
    onStepChange?.(step);
    if (step === 'complete') onProgress?.(false);
    else if (step !== 'account') onProgress?.(true);
  }, [step, onProgress, onStepChange]);

  const next = () => setStep(SIGNUP_STEPS[Math.min(index + 1, SIGNUP_STEPS.length - 1)]);
  const skip = (
    <Button variant="link" className="text-muted" onClick={next} data-testid="signup-skip">{t('signup_flow.skip')}</Button>
  );

  return (
    <div ref={root} data-testid="signup-flow" data-step={step} className={variant === 'page' ? 'signup-flow-page' : undefined}>
      {step !== 'account' && step !== 'complete' && (
        <div className="mb-3">
          <div id="signup-step-label" className="small text-muted mb-1" data-testid="signup-step-label">{t('signup_flow.step_of', { step: index, total: SIGNUP_STEPS.length - 2 })}</div>
          {/* The bar itself (role progressbar) carries the name; a wrapper prop would land on the outer div. */}
          <ProgressBar style={{ height: 6 }}><ProgressBar now={(index / (SIGNUP_STEPS.length - 1)) * 100} aria-labelledby="signup-step-label" /></ProgressBar>
        </div>
      )}
      {step === 'account' && (
        <AccountStep
          profile={profile ?? null}
          variant={variant}
          onStarted={() => onProgress?.(true)}
          onDone={(u, m) => {
            setUser(u);
            setMessage(m);
            next();
          }}
        />
      )}
      {step === 'photo' && <PhotoStep onDone={next} skip={skip} />}
      {step === 'looking' && <LookingStep user={user} onDone={next} skip={skip} />}
      {step === 'location' && <LocationStep user={user} onDone={next} skip={skip} />}
      {step === 'about' && <AboutStep onDone={next} skip={skip} />}
      {step === 'push' && <PushStep onDone={next} />}
      {step === 'complete' && <CompleteStep user={user} message={message} profile={profile ?? null} finishUrl={finishUrl} />}
    </div>
  );
}

function useCountries() {
  const { settings } = useRootData();
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  return useMemo(
    () => countryOptions(settings.countries.length ? settings.countries : COUNTRIES, lang),
    [settings.countries, lang],
  );
}

function AccountStep({ profile, variant, onStarted, onDone }: {
  profile: ProfileSummary | null; variant: Props['variant']; onStarted: () => void;
  onDone: (u: ApiUser, m: { result: SignupMessage; text: string } | null) => void;
}) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const [params] = useSearchParams();
  const invited = useSignupInvited();
  const hydrated = useHydrated();
  const countries = useCountries();
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

  const result = done as SignupResult | undefined;
  const reported = useRef<SignupResult | null>(null);
  const messageText = String(fields.signup_message.initialValue ?? '');
  useEffect(() => {
    if (!result || reported.current === result) return;
    reported.current = result;
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
  const field = (f: (typeof fields)[keyof typeof fields]) => ({ ...fieldProps(f), onInput: touched });

  return (
    <>
      <AppForm form={form} intent="signup" fetcher={fetcher} action={action} revalidate={false} data-testid="signup-form">
        {/* With JavaScript the next steps follow in place; without it the action signs in and moves on. */}
        {hydrated && <input type="hidden" name="steps" value="in-place" />}
        {tracking.map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
        {profile && (
          <div className="d-flex gap-3 align-items-start mb-3" data-testid="signup-member">
            <input type="hidden" name="profile_id" value={profile.id} />
            <div className="signup-member-photo flex-shrink-0"><ProfilePhoto profile={profile} className="rounded" /></div>
            <Form.Group className="flex-grow-1" controlId="signup-message">
              <Form.Label className="fw-semibold">{t('signup_flow.message_label', { name: profile.name })}</Form.Label>
              <Form.Control as="textarea" rows={3} placeholder={t('signup_flow.message_placeholder')} {...field(fields.signup_message)} />
              <FieldError field={fields.signup_message} />
              <Form.Text>{t('signup_flow.message_note')}</Form.Text>
            </Form.Group>
          </div>
        )}
        <FormError form={form} testId="signup-error" />
        <Form.Group className="mb-3" controlId="signup-email">
          <Form.Label>{t('fields.email')}</Form.Label>
          <Form.Control
            type="email" autoComplete="email" {...field(fields.email)} defaultValue={undefined} value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setOfferDismissed(true);
              if (suggestion) checkSuggestion(e.target.value);
            }}
            onBlur={(e) => checkSuggestion(e.target.value)}
          />
          {/* An address in use is answered by the offer below, not a second message. */}
          {!offer && <FieldError field={fields.email} />}
          {suggestion && (
            <div className="form-text" data-testid="email-suggestion">
              {t('signup_flow.did_you_mean')}{' '}
              <Button variant="link" className="p-0 align-baseline" onClick={() => { setEmail(suggestion); setSuggestion(null); }} data-testid="email-suggestion-apply">
                {suggestion}
              </Button>
              ?
            </div>
          )}
        </Form.Group>
        {offer === 'login' && <LoginOffer email={email} offer={login} />}
        {offer === 'reactivate' && <ReactivateOffer email={reactivated?.email ?? email} offer={reactivate} />}
        <Form.Group className="mb-3" controlId="signup-name">
          <Form.Label>{t('fields.name')}</Form.Label>
          <Form.Control autoComplete="nickname" {...field(fields.name)} />
          <FieldError field={fields.name} />
        </Form.Group>
        <Form.Group className="mb-3" controlId="signup-password">
          <Form.Label>{t('fields.password')}</Form.Label>
          <Form.Control type="password" autoComplete="new-password" {...field(fields.password)} />
          <FieldError field={fields.password} />
        </Form.Group>
        <Row>
          <Col sm={6}>
            <Form.Group className="mb-3" controlId="signup-dob">
              <Form.Label>{t('fields.date_of_birth')}</Form.Label>
              <Form.Control type="date" {...field(fields.date_of_birth)} />
              <FieldError field={fields.date_of_birth} />
            </Form.Group>
          </Col>
          <Col sm={6}>
            <Form.Group className="mb-3" controlId="signup-gender">
              <Form.Label>{t('fields.gender')}</Form.Label>
              <Form.Select {...field(fields.gender)} defaultValue={String(fields.gender.initialValue ?? nicheSignupDefaults(settings.niche).gender ?? '')}>
                <option value="" disabled>{t('fields.choose')}</option>
                {GENDERS.map((g) => <option key={g} value={g}>{t(`gender.${g}`)}</option>)}
              </Form.Select>
              <FieldError field={fields.gender} />
            </Form.Group>
          </Col>
        </Row>
        <Form.Group className="mb-3" controlId="signup-country">
          <Form.Label>{t('fields.country')}</Form.Label>
          <Form.Select {...field(fields.country)} defaultValue={String(fields.country.initialValue ?? settings.geoip_country ?? '')}>
            <option value="" disabled>{t('fields.choose')}</option>
            {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
          </Form.Select>
          <FieldError field={fields.country} />
        </Form.Group>
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

type OfferForm = Pick<ReturnType<typeof useAppForm>, 'form' | 'fields' | 'busy'>;

/**
 * Spec section 5: an existing active account is offered log-in, with the address filled in. Its
 * fields post the log-in form (the /login action, as the log-in page does); a wrong password comes
 * back here, a right one signs in and opens the members area.
 */
function LoginOffer({ email, offer }: { email: string; offer: OfferForm }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const { form, fields, busy } = offer;
  const error = form.errors?.[0] ?? fields.email.errors?.[0] ?? fields.password.errors?.[0];
  return (
    <Alert variant="warning" data-testid="signup-login-offer">
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
function ReactivateOffer({ email, offer }: { email: string; offer: OfferForm & { done?: unknown } }) {
  const { t } = useTranslation();
  const { form, fields, busy, done } = offer;
  const error = form.errors?.[0] ?? fields.email.errors?.[0];
  return (
    <Alert variant="warning" data-testid="signup-reactivate-offer">
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

function StepHeading({ title, lead }: { title: string; lead?: string }) {
  return (
    <>
      <h2 className="h4 mb-1">{title}</h2>
      {lead && <p className="text-muted">{lead}</p>}
    </>
  );
}

function PhotoStep({ onDone, skip }: { onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);
  const upload = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      await uploadPhoto(file, { onProgress: setProgress, fallbackMessage: t('errors.server_error') });
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
      setProgress(null);
    }
  };
  return (
    <div data-testid="signup-step-photo">
      <StepHeading title={t('signup_flow.photo_title')} lead={t('signup_flow.photo_lead')} />
      {preview && <img src={preview} alt="" className="rounded mb-3 d-block" style={{ maxWidth: 180, maxHeight: 180, objectFit: 'cover' }} />}
      <Form.Group controlId="signup-photo" className="mb-3">
        <Form.Label className="visually-hidden">{t('signup_flow.photo_title')}</Form.Label>
        <Form.Control
          type="file" accept="image/jpeg,image/png,image/webp"
          onChange={(e) => {
            const f = (e.target as HTMLInputElement).files?.[0] ?? null;
            setFile(f);
            setPreview(f ? URL.createObjectURL(f) : null);
          }}
        />
      </Form.Group>
      {progress !== null && <ProgressBar className="mb-3" data-testid="signup-photo-progress"><ProgressBar now={progress} label={`${progress}%`} aria-label={t('photos.uploading', { percent: progress })} /></ProgressBar>}
      {error && <Alert variant="danger" data-testid="signup-photo-error">{error}</Alert>}
      <div className="d-flex justify-content-between align-items-center">
        {skip}
        <Button onClick={upload} disabled={!file || progress !== null} data-testid="signup-photo-upload">{t('signup_flow.upload')}</Button>
      </div>
    </div>
  );
}

async function saveProfile(body: Record<string, unknown>) {
  await api('/api/signup-profile.php', { method: 'PUT', body });
}

function useSave(onDone: () => void) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (body: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await saveProfile(body);
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
      setBusy(false);
    }
  };
  return { busy, error, save };
}

function LookingStep({ user, onDone, skip }: { user: ApiUser | null; onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const gender = user?.profile.gender ?? 'male';
  // The gay site's answer, when it fits the member's gender.
  const [value, setValue] = useState<string>(() => (gender === 'male' && nicheSignupDefaults(settings.niche).sexuality) || '');
  const { busy, error, save } = useSave(onDone);
  return (
    <div data-testid="signup-step-looking">
      <StepHeading title={t('signup_flow.looking_title')} lead={t('signup_flow.looking_lead')} />
      <div className="d-grid gap-2 mb-3" role="radiogroup">
        {SEXUALITIES.filter((s) => (gender === 'male' ? s !== 'lesbian' : s !== 'gay')).map((s) => (
          <Form.Check
            key={s} type="radio" id={`signup-looking-${s}`} name="sexuality" value={s} checked={value === s}
            onChange={() => setValue(s)} label={t(`signup_flow.looking_${s}_${gender}`)} className="border rounded p-2 ps-5"
          />
        ))}
      </div>
      {error && <Alert variant="danger">{error}</Alert>}
      <div className="d-flex justify-content-between align-items-center">
        {skip}
        <Button onClick={() => save({ sexuality: value })} disabled={!value || busy} data-testid="signup-next">{t('signup_flow.next')}</Button>
      </div>
    </div>
  );
}

function LocationStep({ user, onDone, skip }: { user: ApiUser | null; onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const countries = useCountries();
  const [country, setCountry] = useState(user?.profile.country ?? '');
  const [region, setRegion] = useState('');
  const [regions, setRegions] = useState<{ code: string; name: string }[]>([]);
  const { busy, error, save } = useSave(onDone);
  useEffect(() => {
    if (!country) return;
    let live = true;
    void api<{ regions: { code: string; name: string }[] }>(`/api/regions.php?country=${country}`)
      .then((r) => { if (live) setRegions(r.regions); })
      .catch(() => { if (live) setRegions([]); });
    return () => { live = false; };
  }, [country]);
  return (
    <div data-testid="signup-step-location">
      <StepHeading title={t('signup_flow.location_title')} lead={t('signup_flow.location_lead')} />
      <Form.Group className="mb-3" controlId="signup-location-country">
        <Form.Label>{t('fields.country')}</Form.Label>
        <Form.Select value={country} onChange={(e) => { setCountry(e.target.value); setRegion(''); }}>
          {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
        </Form.Select>
      </Form.Group>
      <Form.Group className="mb-3" controlId="signup-location-region">
        <Form.Label>{t('signup_flow.region')}</Form.Label>
        <Form.Select value={region} onChange={(e) => setRegion(e.target.value)} disabled={!regions.length}>
          <option value="">{t('fields.choose')}</option>
          {regions.map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
        </Form.Select>
      </Form.Group>
      {error && <Alert variant="danger">{error}</Alert>}
      <div className="d-flex justify-content-between align-items-center">
        {skip}
        <Button onClick={() => save({ country, region: region || null })} disabled={!country || busy} data-testid="signup-next">{t('signup_flow.next')}</Button>
      </div>
    </div>
  );
}

function AboutStep({ onDone, skip }: { onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const [about, setAbout] = useState('');
  const { busy, error, save } = useSave(onDone);
  return (
    <div data-testid="signup-step-about">
      <StepHeading title={t('signup_flow.about_title')} lead={t('signup_flow.about_lead')} />
      <Form.Group className="mb-3" controlId="signup-about">
        <Form.Label className="visually-hidden">{t('signup_flow.about_title')}</Form.Label>
        <Form.Control as="textarea" rows={5} maxLength={ABOUT_MAX_LENGTH} value={about} onChange={(e) => setAbout(e.target.value)} placeholder={t('signup_flow.about_placeholder')} />
        <Form.Text>{about.length}/{ABOUT_MAX_LENGTH}</Form.Text>
      </Form.Group>
      {error && <Alert variant="danger">{error}</Alert>}
      <div className="d-flex justify-content-between align-items-center">
        {skip}
        <Button onClick={() => save({ about })} disabled={!about.trim() || busy} data-testid="signup-next">{t('signup_flow.next')}</Button>
      </div>
    </div>
  );
}

function PushStep({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const capable = useHydrated() && pushCapable();
  return (
    <div data-testid="signup-step-push">
      <StepHeading title={t('signup_flow.push_title')} lead={t('signup_flow.push_lead')} />
      {capable ? <PushSettings compact onChange={(s) => { if (s === 'subscribed' || s === 'denied') onDone(); }} /> : <p>{t('push_settings.state_not_capable')}</p>}
      <div className="d-flex justify-content-end mt-3">
        <Button variant="link" className="text-muted" onClick={onDone} data-testid="signup-skip">{t('signup_flow.not_now')}</Button>
      </div>
    </div>
  );
}

function CompleteStep({ user, message, profile, finishUrl }: { user: ApiUser | null; message: { result: SignupMessage; text: string } | null; profile: ProfileSummary | null; finishUrl: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="signup-step-complete" className="text-center">
      <MailCheck size={48} strokeWidth={1.5} className="text-primary mb-2" aria-hidden="true" />
      <h2 className="h4">{t('signup_flow.complete_title')}</h2>
      <p className="text-break">{t('signup_flow.complete_lead', { email: user?.email ?? '' })}</p>
      <ResendActivation />
      {message && profile && message.result.status === 'sent' && (
        <Alert variant="success" className="text-start mt-3" data-testid="signup-message-sent">{t('signup_flow.message_sent', { name: profile.name })}</Alert>
      )}
      {message && profile && message.result.status !== 'sent' && (
        <Alert variant="warning" className="text-start mt-3" data-testid="signup-message-draft">
          <p className="mb-1">{message.result.code === 'insufficient_credits' ? t('signup_flow.message_draft', { name: profile.name }) : t('signup_flow.message_failed', { name: profile.name })}</p>
          <blockquote className="small fst-italic mb-2">“{message.text}”</blockquote>
          {message.result.code === 'insufficient_credits' && <a href="/credits" className="btn btn-secondary btn-sm" data-testid="signup-buy-credits">{t('signup_flow.buy_credits')}</a>}
        </Alert>
      )}
      <a href={finishUrl} className="btn btn-primary btn-lg w-100 mt-3" data-testid="signup-finish">{t('signup_flow.finish')}</a>
    </div>
  );
}
