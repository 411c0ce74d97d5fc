import { useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Form, Row } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link, redirect, useSearchParams } from 'react-router';
import { COUNTRIES, GENDERS } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { signupSchema } from '#common/schemas.ts';
import type { Route } from './+types/signup';
import { requestContext } from '../context.ts';
import { api, ApiError } from '../lib/api.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { countryName } from '../lib/format.ts';
import { useRootData } from '../root.tsx';

export function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (ctx.userId) throw redirect('/members');
  return null;
}

const TRACKING = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;
type Field = 'email' | 'name' | 'password' | 'date_of_birth' | 'gender' | 'country';

export default function Signup() {
  const { t, i18n } = useTranslation();
  const { settings } = useRootData();
  const [params] = useSearchParams();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Forms submit through the API; until the page is interactive the button waits.
  const hydrated = useHydrated();
  const lang = i18n.language as Language;
  const countries = useMemo(
    () => (settings.countries.length ? settings.countries : COUNTRIES).map((c) => ({ code: c, name: countryName(c, lang) })).sort((a, b) => a.name.localeCompare(b.name, lang)),
    [settings.countries, lang],
  );
  const invited = settings.signups === 'all' || (settings.signups === 'with_trafficsource' && params.get('network'));

  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const values = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const checked = signupSchema(new Date()).safeParse(values);
    if (!checked.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) next[issue.path[0] as Field] ??= t(issue.message, { min_age: 18 });
      setErrors(next);
      return;
    }
    setErrors({});
    setFormError(null);
    setBusy(true);
    const tracking = Object.fromEntries(TRACKING.flatMap((k) => (params.get(k) ? [[k, params.get(k)]] : [])));
    try {
      await api('/api/signup.php', { method: 'POST', body: { ...checked.data, ...tracking }, retries: 0 });
      window.location.assign('/members');
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(err.details as Partial<Record<Field, string>>);
        if (!Object.keys(err.details).length) setFormError(err.message);
      } else setFormError(t('errors.server_error'));
      setBusy(false);
    }
  };

  const field = (name: Field) => ({ name, isInvalid: Boolean(errors[name]), 'aria-describedby': `${name}-error` });
  const feedback = (name: Field) => <Form.Control.Feedback type="invalid" id={`${name}-error`}>{errors[name]}</Form.Control.Feedback>;

  return (
    <div className="container py-5" style={{ maxWidth: 560 }}>
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 mb-1">{t('signup.title')}</h1>
          <p className="text-muted">{t('signup.lead')}</p>
          {!invited ? (
            <Alert variant="info" data-testid="signup-disabled">{t('errors.signup_disabled')}</Alert>
          ) : (
            <Form method="post" onSubmit={submit} noValidate data-testid="signup-form">
              {formError && <Alert variant="danger">{formError}</Alert>}
              <Form.Group className="mb-3" controlId="signup-email">
                <Form.Label>{t('fields.email')}</Form.Label>
                <Form.Control type="email" autoComplete="email" {...field('email')} />
                {feedback('email')}
              </Form.Group>
              <Form.Group className="mb-3" controlId="signup-name">
                <Form.Label>{t('fields.name')}</Form.Label>
                <Form.Control autoComplete="nickname" {...field('name')} />
                {feedback('name')}
              </Form.Group>
              <Form.Group className="mb-3" controlId="signup-password">
                <Form.Label>{t('fields.password')}</Form.Label>
                <Form.Control type="password" autoComplete="new-password" {...field('password')} />
                {feedback('password')}
              </Form.Group>
              <Row>
                <Col sm={6}>
                  <Form.Group className="mb-3" controlId="signup-dob">
                    <Form.Label>{t('fields.date_of_birth')}</Form.Label>
                    <Form.Control type="date" {...field('date_of_birth')} />
                    {feedback('date_of_birth')}
                  </Form.Group>
                </Col>
                <Col sm={6}>
                  <Form.Group className="mb-3" controlId="signup-gender">
                    <Form.Label>{t('fields.gender')}</Form.Label>
                    <Form.Select defaultValue="" {...field('gender')}>
                      <option value="" disabled>{t('fields.choose')}</option>
                      {GENDERS.map((g) => <option key={g} value={g}>{t(`gender.${g}`)}</option>)}
                    </Form.Select>
                    {feedback('gender')}
                  </Form.Group>
                </Col>
              </Row>
              <Form.Group className="mb-3" controlId="signup-country">
                <Form.Label>{t('fields.country')}</Form.Label>
                <Form.Select defaultValue={settings.geoip_country ?? ''} {...field('country')}>
                  <option value="" disabled>{t('fields.choose')}</option>
                  {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
                </Form.Select>
                {feedback('country')}
              </Form.Group>
              <p className="small text-muted">
                {t('signup.terms_notice')} <Link to="/pages/terms">{t('footer.terms')}</Link> · <Link to="/pages/privacy">{t('footer.privacy')}</Link>
              </p>
              <Button type="submit" className="w-100" size="lg" disabled={busy || !hydrated} data-testid="signup-submit">{t('signup.submit')}</Button>
            </Form>
          )}
          <p className="mt-3 mb-0 text-center">{t('signup.have_account')} <Link to="/login">{t('nav.login')}</Link></p>
        </Card.Body>
      </Card>
    </div>
  );
}
