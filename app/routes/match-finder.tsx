import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { useRevalidator } from 'react-router';
import { MAX_AGE, MIN_AGE } from '#common/constants.ts';
import type { MatchPreferencesInput } from '#common/games.ts';
import type { Route } from './+types/match-finder';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { api } from '../lib/api.ts';
import { ProfileCard } from '../components/ProfileCard.tsx';
import { pageMeta } from '../lib/seo.ts';
import { UserSearch } from 'lucide-react';
import { EmptyState } from '../components/EmptyState.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  return ctx.services.games.matchFinder(requireMemberActor(ctx, url.pathname));
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'match_finder.title' });
}

const AGES = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);
const DISTANCES = [10, 25, 50, 100, 250] as const;

/** Spec /match-finder: a short questionnaire the first time, then the best candidates with the reasons they were chosen. */
export default function MatchFinder({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const [editing, setEditing] = useState(!loaderData.saved);
  const [form, setForm] = useState<MatchPreferencesInput>(loaderData.preferences);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/api/match-finder.php', { method: 'PUT', body: form });
      setEditing(false);
      await revalidate();
    } catch (err) {
      setError(err instanceof Error ? err.message : t('errors.server_error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container py-4">
      <h1 className="h3">{t('match_finder.title')}</h1>
      {editing ? (
        <Form onSubmit={save} className="card card-body shadow-sm mb-4 match-finder-form" data-testid="match-finder-form" noValidate>
          <p className="text-muted">{t('match_finder.intro')}</p>
          <FormField
            id="mf-gender" as="select" className="mb-3" label={t('match_finder.gender')}
            value={form.gender ?? ''} onChange={(e) => setForm({ ...form, gender: (e.target.value || null) as MatchPreferencesInput['gender'] })}
          >
            <option value="female">{t('match_finder.women')}</option>
            <option value="male">{t('match_finder.men')}</option>
            <option value="">{t('match_finder.both')}</option>
          </FormField>
          <Row className="g-3 mb-3">
            <Col xs={6}>
              <FormField id="mf-min-age" as="select" label={t('match_finder.min_age')} value={form.min_age} onChange={(e) => setForm({ ...form, min_age: Number(e.target.value) })}>
                {AGES.map((a) => <option key={a} value={a}>{a}</option>)}
              </FormField>
            </Col>
            <Col xs={6}>
              <FormField
                id="mf-max-age" as="select" label={t('match_finder.max_age')} error={form.min_age > form.max_age ? t('errors.age_range_invalid') : null}
                value={form.max_age} onChange={(e) => setForm({ ...form, max_age: Number(e.target.value) })}
              >
                {AGES.map((a) => <option key={a} value={a}>{a}</option>)}
              </FormField>
            </Col>
          </Row>
          <FormField
            id="mf-distance" as="select" className="mb-3" label={t('match_finder.distance')}
            value={form.max_distance_km ?? ''} onChange={(e) => setForm({ ...form, max_distance_km: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{t('match_finder.anywhere')}</option>
            {DISTANCES.map((d) => <option key={d} value={d}>{t('match_finder.within_km', { count: d })}</option>)}
          </FormField>
          {error && <Alert variant="danger" data-testid="match-finder-error">{error}</Alert>}
          <Button type="submit" disabled={busy || form.min_age > form.max_age} data-testid="match-finder-submit">{t('match_finder.find')}</Button>
        </Form>
      ) : (
        <div className="d-flex justify-content-between align-items-center mb-3">
          <p className="text-muted mb-0">{t('match_finder.results_intro')}</p>
          <Button variant="outline-primary" size="sm" onClick={() => setEditing(true)} data-testid="match-finder-edit">{t('match_finder.edit')}</Button>
        </div>
      )}
      {loaderData.saved && !editing && (loaderData.profiles.length === 0 ? (
        <EmptyState icon={UserSearch} text={t('match_finder.empty')} testId="match-finder-empty" />
      ) : (
        <div className="row g-3" data-testid="match-finder-results">
          {loaderData.profiles.map((p) => (
            <div key={p.id} className="col-6 col-md-4 col-lg-3 match-finder-result">
              <ProfileCard profile={p} />
              <ul className="match-reasons small text-muted mt-1" data-testid="match-reasons">
                {p.reasons.map((r) => (
                  <li key={r.code}>{t(`match_finder.reason_${r.code}`, { value: r.value, count: typeof r.value === 'number' ? r.value : 0 })}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
