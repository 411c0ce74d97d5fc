import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { OwnProfile } from '#common/api-types.ts';
import { COUNTRIES } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { ABOUT_MAX, ATTRIBUTE_KEYS, ATTRIBUTE_OPTIONS, profileSchema, type AttributeKey } from '#common/profile.ts';
import { countryOptions } from '../../lib/format.ts';
import { AppForm, useAppForm } from '../../lib/forms.tsx';
import { useInterests, useRegions, type Interest, type Region } from '../../lib/reference-data.ts';
import { attributeValueLabel } from './labels.ts';

/** The profile as form values: "not said" is an empty choice. */
function formValues(profile: OwnProfile): Record<string, string | string[]> {
  const { id: _id, email: _email, interests, ...rest } = profile;
  return { ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v ?? ''])), interests };
}

/**
 * The /profile form: every member attribute, checked by the same schema as PUT /api/profile.php,
 * in the browser and in the page's action (which saves it without JavaScript too).
 */
export function ProfileForm({ profile, countries, regions, interests, visibleFields, showNotes }: {
  profile: OwnProfile; countries: string[]; regions: Region[]; interests: Interest[];
  visibleFields: string[]; showNotes: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const schema = useMemo(() => profileSchema(profile.email), [profile.email]);
  const { form, fields, busy, done } = useAppForm(schema, { defaultValue: formValues(profile) });
  // What the form started from: the saved profile, or what a page without JavaScript sent and got back (nothing,
  // when the form came back empty).
  const start = (form.initialValue ?? {}) as Record<string, string | string[] | undefined>;
  // The region list follows the country, and the about-me counter the text, so these three are React state.
  const [country, setCountry] = useState(String(start.country ?? profile.country));
  const [region, setRegion] = useState(String(start.region ?? ''));
  const [about, setAbout] = useState(String(start.about ?? ''));
  const [chosen, setChosen] = useState<string[]>(() => [start.interests ?? []].flat());

  // Reference data is fetched once per visit (spec section 7); the page's loader already brings it.
  const allRegions = useRegions(regions);
  const interestList = useInterests(lang, interests);
  const countryList = useMemo(
    () => countryOptions(countries.length ? countries : COUNTRIES, lang),
    [countries, lang],
  );
  const countryRegions = allRegions.filter((r) => r.country === country);

  // Whether the public profile shows a field: its description, when the site shows these notes.
  const note = (key: string) => ({
    description: showNotes && (visibleFields.includes(key) ? t('profile_edit.visible_note') : t('profile_edit.hidden_note')),
    descriptionProps: { className: 'd-block', 'data-testid': `note-${key}` },
  });
  const field = (key: string) => fields[key];
  // An error of one listed interest ("interests[2]") shows at the list.
  const interestError = Object.values(fields.interests.allErrors)[0]?.[0];
  const fieldErrors = Object.keys(form.allErrors).some((name) => name !== '');
  const status = done ? { variant: 'success', text: t('profile_edit.saved') }
    : form.errors?.length ? { variant: 'danger', text: form.errors[0] }
      : fieldErrors ? { variant: 'danger', text: t('profile_edit.fix_errors') } : null;

  const select = (key: AttributeKey) => (
    <Col sm={6} key={key}>
      <FormField id={`profile-${key}`} as="select" label={t(`profile_fields.${key}`)} field={field(key)} {...note(key)}>
        {key !== 'gender' && <option value="">{t('profile_fields.not_said')}</option>}
        {ATTRIBUTE_OPTIONS[key].map((v) => <option key={v} value={v}>{attributeValueLabel(t, key, v)}</option>)}
      </FormField>
    </Col>
  );

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <h2 className="h5 mb-3">{t('profile_edit.details')}</h2>
        <AppForm form={form} data-testid="profile-form">
          <Row className="g-3">
            <Col sm={6}>
              <FormField id="profile-name" label={t('profile_fields.name')} field={fields.name} required maxLength={40} autoComplete="nickname" />
            </Col>
            {ATTRIBUTE_KEYS.map(select)}
            <Col sm={6}>
              <FormField
                id="profile-country" as="select" label={t('profile_fields.country')} field={fields.country}
                value={country} onChange={(e) => { setCountry(e.target.value); setRegion(''); }}
              >
                {countryList.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
              </FormField>
            </Col>
            <Col sm={6}>
              <FormField id="profile-region" as="select" label={t('profile_fields.region')} field={fields.region} value={region} onChange={(e) => setRegion(e.target.value)}>
                <option value="">{t('profile_fields.choose_region')}</option>
                {countryRegions.map((r) => <option key={r.code} value={r.name}>{r.name}</option>)}
              </FormField>
            </Col>
            <Col xs={12}>
              <FormField id="profile-interests" as="group" label={t('profile_fields.interests')} error={interestError ?? null} {...note('interests')}>
                <div className="d-flex flex-wrap gap-2" data-testid="profile-interests">
                  {interestList.map((i) => {
                    const on = chosen.includes(i.key);
                    return (
                      <Form.Check
                        key={i.key} id={`interest-${i.key}`} type="checkbox" className="interest-chip" label={i.name} checked={on}
                        name={fields.interests.name} value={i.key}
                        onChange={() => setChosen(on ? chosen.filter((k) => k !== i.key) : [...chosen, i.key])}
                      />
                    );
                  })}
                </div>
              </FormField>
            </Col>
            <Col xs={12}>
              <FormField
                id="profile-about" as="textarea" label={t('profile_fields.about')} field={fields.about}
                description={t('profile_edit.about_help', { used: about.length, max: ABOUT_MAX })}
                rows={5} value={about} onChange={(e) => setAbout(e.target.value)}
              />
            </Col>
          </Row>
          {status && <Alert variant={status.variant} className="mt-3 mb-0" data-testid="profile-status">{status.text}</Alert>}
          <Button type="submit" className="mt-3" disabled={busy} data-testid="profile-save">
            {busy ? t('profile_edit.saving') : t('profile_edit.save')}
          </Button>
        </AppForm>
      </Card.Body>
    </Card>
  );
}
