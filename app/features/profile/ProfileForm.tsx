import { useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Form, Row } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { OwnProfile } from '#common/api-types.ts';
import { COUNTRIES } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { ABOUT_MAX, ATTRIBUTE_KEYS, ATTRIBUTE_OPTIONS, profileSchema, type AttributeKey } from '#common/profile.ts';
import { api, ApiError } from '../../lib/api.ts';
import { countryName } from '../../lib/format.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { attributeValueLabel } from './labels.ts';

export interface Region { country: string; code: string; name: string }
export interface Interest { key: string; name: string }

type Values = Omit<OwnProfile, 'id' | 'email'>;

/** The /profile form: every member attribute, checked by the same schema as PUT /api/profile.php. */
export function ProfileForm({ profile, countries, regions, interests, visibleFields, showNotes, onSaved }: {
  profile: OwnProfile; countries: string[]; regions: Region[]; interests: Interest[];
  visibleFields: string[]; showNotes: boolean; onSaved?: (p: OwnProfile) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const hydrated = useHydrated();
  const [values, setValues] = useState<Values>(() => {
    const { id: _id, email: _email, ...rest } = profile;
    return rest;
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ variant: 'success' | 'danger'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // Reference data is fetched once per visit (spec section 7); the page's loader already brings it.
  const regionQuery = useQuery({
    queryKey: ['regions'], queryFn: async () => (await api<{ regions: Region[] }>('/api/regions.php')).regions, initialData: regions, staleTime: Infinity,
  });
  const interestQuery = useQuery({
    queryKey: ['interests', lang], queryFn: async () => (await api<{ interests: Interest[] }>('/api/interests.php')).interests, initialData: interests, staleTime: Infinity,
  });
  const countryList = useMemo(
    () => (countries.length ? countries : COUNTRIES).map((c) => ({ code: c, name: countryName(c, lang) })).sort((a, b) => a.name.localeCompare(b.name, lang)),
    [countries, lang],
  );
  const countryRegions = regionQuery.data.filter((r) => r.country === values.country);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const note = (key: string) => showNotes && (
    <Form.Text className="d-block" data-testid={`note-${key}`}>{visibleFields.includes(key) ? t('profile_edit.visible_note') : t('profile_edit.hidden_note')}</Form.Text>
  );
  const feedback = (key: string) => <Form.Control.Feedback type="invalid">{errors[key]}</Form.Control.Feedback>;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setStatus(null);
    const checked = profileSchema(profile.email).safeParse(values);
    if (!checked.success) {
      const next: Record<string, string> = {};
      for (const issue of checked.error.issues) next[String(issue.path[0])] ??= t(issue.message);
      setErrors(next);
      setStatus({ variant: 'danger', text: t('profile_edit.fix_errors') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await api<{ profile: OwnProfile }>('/api/profile.php', { method: 'PUT', body: checked.data });
      setStatus({ variant: 'success', text: t('profile_edit.saved') });
      onSaved?.(res.profile);
    } catch (err) {
      if (err instanceof ApiError) {
        const details = Object.fromEntries(Object.entries(err.details).map(([k, v]) => [k.split('.')[0], v]));
        setErrors(details);
        setStatus({ variant: 'danger', text: Object.keys(details).length ? t('profile_edit.fix_errors') : err.message });
      } else setStatus({ variant: 'danger', text: t('errors.server_error') });
    } finally {
      setBusy(false);
    }
  };

  const select = (key: AttributeKey) => (
    <Col sm={6} key={key}>
      <Form.Group controlId={`profile-${key}`}>
        <Form.Label>{t(`profile_fields.${key}`)}</Form.Label>
        <Form.Select
          value={values[key] ?? ''} isInvalid={Boolean(errors[key])}
          onChange={(e) => set(key, e.target.value === '' ? null : e.target.value as never)}
        >
          {key !== 'gender' && <option value="">{t('profile_fields.not_said')}</option>}
          {ATTRIBUTE_OPTIONS[key].map((v) => <option key={v} value={v}>{attributeValueLabel(t, key, v)}</option>)}
        </Form.Select>
        {feedback(key)}
        {note(key)}
      </Form.Group>
    </Col>
  );

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <h2 className="h5 mb-3">{t('profile_edit.details')}</h2>
        <Form onSubmit={submit} noValidate data-testid="profile-form">
          <Row className="g-3">
            <Col sm={6}>
              <Form.Group controlId="profile-name">
                <Form.Label>{t('profile_fields.name')}</Form.Label>
                <Form.Control value={values.name} maxLength={40} isInvalid={Boolean(errors.name)} onChange={(e) => set('name', e.target.value)} autoComplete="nickname" />
                {feedback('name')}
              </Form.Group>
            </Col>
            {ATTRIBUTE_KEYS.map(select)}
            <Col sm={6}>
              <Form.Group controlId="profile-country">
                <Form.Label>{t('profile_fields.country')}</Form.Label>
                <Form.Select value={values.country} isInvalid={Boolean(errors.country)} onChange={(e) => setValues((v) => ({ ...v, country: e.target.value, region: null }))}>
                  {countryList.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
                </Form.Select>
                {feedback('country')}
              </Form.Group>
            </Col>
            <Col sm={6}>
              <Form.Group controlId="profile-region">
                <Form.Label>{t('profile_fields.region')}</Form.Label>
                <Form.Select value={values.region ?? ''} isInvalid={Boolean(errors.region)} onChange={(e) => set('region', e.target.value || null)}>
                  <option value="">{t('profile_fields.choose_region')}</option>
                  {countryRegions.map((r) => <option key={r.code} value={r.name}>{r.name}</option>)}
                </Form.Select>
                {feedback('region')}
              </Form.Group>
            </Col>
            <Col xs={12}>
              <fieldset>
                <legend className="form-label fs-6">{t('profile_fields.interests')}</legend>
                <div className="d-flex flex-wrap gap-2" data-testid="profile-interests">
                  {interestQuery.data.map((i) => {
                    const on = values.interests.includes(i.key);
                    return (
                      <Form.Check
                        key={i.key} id={`interest-${i.key}`} type="checkbox" className="interest-chip" label={i.name} checked={on}
                        onChange={() => set('interests', on ? values.interests.filter((k) => k !== i.key) : [...values.interests, i.key])}
                      />
                    );
                  })}
                </div>
                {errors.interests && <div className="invalid-feedback d-block">{errors.interests}</div>}
                {note('interests')}
              </fieldset>
            </Col>
            <Col xs={12}>
              <Form.Group controlId="profile-about">
                <Form.Label>{t('profile_fields.about')}</Form.Label>
                <Form.Control as="textarea" rows={5} value={values.about} isInvalid={Boolean(errors.about)} onChange={(e) => set('about', e.target.value)} />
                {feedback('about')}
                <Form.Text>{t('profile_edit.about_help', { used: values.about.length, max: ABOUT_MAX })}</Form.Text>
              </Form.Group>
            </Col>
          </Row>
          {status && <Alert variant={status.variant} className="mt-3 mb-0" data-testid="profile-status">{status.text}</Alert>}
          <Button type="submit" className="mt-3" disabled={busy || !hydrated} data-testid="profile-save">
            {busy ? t('profile_edit.saving') : t('profile_edit.save')}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
