import { useEffect, useState } from 'react';
import { Button, Col, Form, Row, Spinner } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Form as RouterForm, redirect, useNavigation } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { COUNTRIES, GENDERS, MAX_AGE, MIN_AGE } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { searchSchema } from '#common/schemas.ts';
import type { Route } from './+types/members';
import { requestContext } from '../context.ts';
import { searchAllowed } from '#server/search/search-access.ts';
import { api } from '../lib/api.ts';
import { countryName } from '../lib/format.ts';
import { ProfileCard } from '../components/ProfileCard.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (!searchAllowed(ctx)) throw redirect('/login?redirect=/members');
  const query = Object.fromEntries(url.searchParams);
  const input = searchSchema.parse({ ...query, cursor: undefined });
  const page = await ctx.services.search.search(ctx.userId, input);
  return { input, page, countries: ctx.site.countries.length ? ctx.site.countries : COUNTRIES };
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { input, page } = loaderData;
  const navigation = useNavigation();
  // Pages are appended; a new search (new loader data) starts again from its first page.
  const [results, setResults] = useState<ProfileSummary[]>(page.profiles);
  const [cursor, setCursor] = useState<string | null>(page.next_cursor);
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => {
    setResults(page.profiles);
    setCursor(page.next_cursor);
  }, [page]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    const params = new URLSearchParams();
    if (input.gender) params.set('gender', input.gender);
    if (input.country) params.set('country', input.country);
    params.set('min_age', String(input.min_age));
    params.set('max_age', String(input.max_age));
    params.set('cursor', cursor);
    try {
      const next = await api<{ profiles: ProfileSummary[]; next_cursor: string | null }>(`/api/members.php?${params}`);
      setResults((r) => [...r, ...next.profiles]);
      setCursor(next.next_cursor);
    } finally {
      setLoadingMore(false);
    }
  };

  const ages = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);
  return (
    <div className="container py-4">
      <h1 className="h3 mb-3">{t('search.title')}</h1>
      <RouterForm method="get" className="card card-body shadow-sm mb-4" data-testid="search-form" key={JSON.stringify(input)}>
        <Row className="g-2 align-items-end">
          <Col xs={6} md={3}>
            <Form.Label htmlFor="search-gender">{t('fields.gender')}</Form.Label>
            <Form.Select id="search-gender" name="gender" defaultValue={input.gender ?? ''}>
              <option value="">{t('search.any')}</option>
              {GENDERS.map((g) => <option key={g} value={g}>{t(`gender.${g}`)}</option>)}
            </Form.Select>
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor="search-country">{t('fields.country')}</Form.Label>
            <Form.Select id="search-country" name="country" defaultValue={input.country ?? ''}>
              <option value="">{t('search.any')}</option>
              {loaderData.countries.map((c) => ({ c, name: countryName(c, lang) })).sort((a, b) => a.name.localeCompare(b.name, lang))
                .map(({ c, name }) => <option key={c} value={c}>{name}</option>)}
            </Form.Select>
          </Col>
          <Col xs={3} md={2}>
            <Form.Label htmlFor="search-min-age">{t('search.min_age')}</Form.Label>
            <Form.Select id="search-min-age" name="min_age" defaultValue={input.min_age}>
              {ages.map((a) => <option key={a} value={a}>{a}</option>)}
            </Form.Select>
          </Col>
          <Col xs={3} md={2}>
            <Form.Label htmlFor="search-max-age">{t('search.max_age')}</Form.Label>
            <Form.Select id="search-max-age" name="max_age" defaultValue={input.max_age}>
              {ages.map((a) => <option key={a} value={a}>{a}</option>)}
            </Form.Select>
          </Col>
          <Col xs={6} md={2} className="d-grid">
            <Button type="submit" data-testid="search-submit">{t('search.submit')}</Button>
          </Col>
        </Row>
      </RouterForm>
      <p className="text-muted" data-testid="num-results">{t('search.num_results', { count: page.numResults ?? 0 })}</p>
      {navigation.state === 'loading' && <Spinner animation="border" size="sm" className="mb-3" />}
      {results.length === 0 ? (
        <p className="lead" data-testid="no-results">{t('search.no_results')}</p>
      ) : (
        <div className="row g-3" data-testid="search-results">
          {results.map((p) => (
            <div key={p.id} className="col-6 col-sm-4 col-lg-3 col-xl-2">
              <ProfileCard profile={p} />
            </div>
          ))}
        </div>
      )}
      {cursor && (
        <div className="text-center my-4">
          <Button variant="outline-primary" onClick={() => void loadMore()} disabled={loadingMore} data-testid="load-more">
            {loadingMore ? <Spinner animation="border" size="sm" /> : t('search.load_more')}
          </Button>
        </div>
      )}
    </div>
  );
}
