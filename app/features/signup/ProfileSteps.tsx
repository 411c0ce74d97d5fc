import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { ApiUser } from '#common/api-types.ts';
import { ABOUT_MAX_LENGTH, SEXUALITIES } from '#common/schemas.ts';
import { nicheSignupDefaults } from '#common/site-theme.ts';
import { api, ApiError } from '../../lib/api.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useRegions } from '../../lib/reference-data.ts';
import { StepHeading } from './StepHeading.tsx';
import { useSignupCountries } from './signup-countries.ts';

/**
 * Steps 2–4 (who they look for, where they live, about them) save each answer to the profile as it is given
 * (PUT /api/signup-profile.php) and move on; a refused answer keeps the step with its error.
 */
function useSave(onDone: () => void) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (body: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await api('/api/signup-profile.php', { method: 'PUT', body });
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
      setBusy(false);
    }
  };
  return { busy, error, save };
}

/** The step's error, and its buttons: skip it, or save and go on. */
function StepActions({ error, skip, onNext, disabled }: { error: string | null; skip: React.ReactNode; onNext: () => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {error && <Alert variant="danger">{error}</Alert>}
      <div className="d-flex justify-content-between align-items-center">
        {skip}
        <Button onClick={onNext} disabled={disabled} data-testid="signup-next">{t('signup_flow.next')}</Button>
      </div>
    </>
  );
}

export function LookingStep({ user, onDone, skip }: { user: ApiUser | null; onDone: () => void; skip: React.ReactNode }) {
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
      <StepActions error={error} skip={skip} onNext={() => void save({ sexuality: value })} disabled={!value || busy} />
    </div>
  );
}

export function LocationStep({ user, onDone, skip }: { user: ApiUser | null; onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const countries = useSignupCountries();
  const [country, setCountry] = useState(user?.profile.country ?? '');
  const [region, setRegion] = useState('');
  // Every region at once, fetched once for the page: choosing another country (and back) asks for nothing.
  const regions = useRegions().filter((r) => r.country === country);
  const { busy, error, save } = useSave(onDone);
  return (
    <div data-testid="signup-step-location">
      <StepHeading title={t('signup_flow.location_title')} lead={t('signup_flow.location_lead')} />
      <FormField
        id="signup-location-country" as="select" className="mb-3" label={t('fields.country')}
        value={country} onChange={(e) => { setCountry(e.target.value); setRegion(''); }}
      >
        {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
      </FormField>
      <FormField
        id="signup-location-region" as="select" className="mb-3" label={t('signup_flow.region')}
        value={region} onChange={(e) => setRegion(e.target.value)} disabled={!regions.length}
      >
        <option value="">{t('fields.choose')}</option>
        {regions.map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
      </FormField>
      <StepActions error={error} skip={skip} onNext={() => void save({ country, region: region || null })} disabled={!country || busy} />
    </div>
  );
}

export function AboutStep({ onDone, skip }: { onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const [about, setAbout] = useState('');
  const { busy, error, save } = useSave(onDone);
  return (
    <div data-testid="signup-step-about">
      <StepHeading title={t('signup_flow.about_title')} lead={t('signup_flow.about_lead')} />
      <FormField
        id="signup-about" as="textarea" className="mb-3" label={t('signup_flow.about_title')} labelClassName="visually-hidden"
        description={<>{about.length}/{ABOUT_MAX_LENGTH}</>}
        rows={5} maxLength={ABOUT_MAX_LENGTH} value={about} onChange={(e) => setAbout(e.target.value)} placeholder={t('signup_flow.about_placeholder')}
      />
      <StepActions error={error} skip={skip} onNext={() => void save({ about })} disabled={!about.trim() || busy} />
    </div>
  );
}
