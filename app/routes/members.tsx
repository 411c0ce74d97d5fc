import { useEffect, useRef, useState } from 'react';
import { SearchX, SlidersHorizontal } from 'lucide-react';
import { useTranslation } from '../lib/i18n.ts';
import { Link, Form as RouterForm, redirect, useLocation, useNavigate, useNavigation, useRevalidator } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { COUNTRIES, GENDERS, MAX_AGE, MIN_AGE } from '#common/constants.ts';
import { DISTANCE_RADII } from '#common/distance.ts';
import type { Language } from '#common/languages.ts';
import { searchSchema, type SearchInput } from '#common/schemas.ts';
import type { Route } from './+types/members';
import { requestContext } from '../context.ts';
import { isAppError } from '#server/infra/errors.ts';
import type { SearchResult } from '#server/search/search.service.ts';
import { api } from '../lib/api.ts';
import { byCountryName, countryName } from '../lib/format.ts';
import { LocationOptions } from '../features/search/LocationOptions.tsx';
import { ResultsGrid, SkeletonCards } from '../features/search/ResultsGrid.tsx';
import type { Geocode } from '../features/search/geolocation.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { loadRegions, useRegions, type Region } from '../lib/reference-data.ts';
import { useQueryClient } from '../lib/query.ts';
import { FormField } from '../components/FormField.tsx';
import '../features/search/skeleton.scss';

/** The search's own parameters: an address naming none of them starts from the member's defaults. */
const SEARCH_FILTERS = ['gender', 'country', 'countryregion', 'distance', 'min_age', 'max_age', 'cursor', 'similar'];

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  // The page shows its first page of results: paging goes through GET /api/members.php.
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'cursor' && name !== 'similar'));
  // The page shows results whatever the address bar says: a region or distance the rules refuse is left out, as the form would.
  const parsed = searchSchema.safeParse(query);
  const filters = parsed.success ? parsed.data : searchSchema.parse({ ...query, countryregion: undefined, distance: undefined });
  // A first visit names no filters: the search starts where the actor's defaults say (their country, the site's niche,
  // who they are looking for). Other parameters (the sign-up's `signup-complete`, tracking) are no filters.
  const fresh = !SEARCH_FILTERS.some((name) => url.searchParams.has(name));
  const network = ctx.query.network ?? null;
  const find = (chosen: SearchInput) => ctx.services.search.find(ctx.actor, fresh ? { network, requestCountry: ctx.geoipCountry } : { filters: chosen, network });
  const { filters: input, result: page } = await find(filters)
    // A distance from a member who no longer shares a location (an old address): searched without it.
    .catch((error: unknown) => {
      if (isAppError(error) && error.details.distance && filters.distance) return find({ ...filters, distance: undefined });
      throw error;
    })
    .catch((error: unknown) => {
      // Spec section 4: a visitor who may not search is asked to log in (or sign up from there).
      if (isAppError(error) && error.code === 'authentication_required') throw redirect('/login?redirect=/members');
      throw error;
    });
  // In the order of their names in the page's language: sorted here, the browser does not load its collation
  // data for it while the page hydrates.
  const countries = byCountryName(ctx.site.countries.length ? ctx.site.countries : COUNTRIES, ctx.lang);
  // The regions of the country searched in, for the form as it opens; another country's come with the region list the
  // page fetches once when the member picks one (spec section 7). Every country's would make most of the page's data.
  const regions: Record<string, string[]> = {};
  if (input.country) regions[input.country] = (await ctx.services.settings.regions(input.country)).map((r) => r.name);
  return { input, page, countries, searchFields: ctx.site.searchFields, regions, member: ctx.actor.kind === 'member' };
}

/** The names of a country's regions, in the list's order. */
const namesIn = (country: string, regions: Region[]) => regions.filter((r) => r.country === country).map((r) => r.name);

/** "Within 25 km": a distance filter's value as the form and the summary say it. */
function distanceLabel(t: (key: string, options?: Record<string, unknown>) => string, filter: string): string {
  const value = Number.parseInt(filter, 10);
  return t(filter.endsWith('mi') ? 'member_search.within_mi' : 'member_search.within_km', { value });
}

function searchParams(input: SearchInput, extra: Record<string, string> = {}) {
  const params = new URLSearchParams();
  if (input.gender) params.set('gender', input.gender);
  if (input.country) params.set('country', input.country);
  if (input.countryregion) params.set('countryregion', input.countryregion);
  if (input.distance) params.set('distance', input.distance);
  params.set('min_age', String(input.min_age));
  params.set('max_age', String(input.max_age));
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params;
}

interface LoadedPages { results: ProfileSummary[]; cursor: string | null; similar: ProfileSummary[]; similarCursor: string | null }

const pagesKey = (historyKey: string) => `members-pages:${historyKey}`;

/**
 * The pages loaded under this history entry, so going back from a profile shows them again (and the
 * browser's scroll position fits). Only after hydration: a full page load renders what the server sent.
 */
function savedPages(historyKey: string, first: ProfileSummary[]): LoadedPages | null {
  if (typeof document === 'undefined' || document.documentElement.dataset.hydrated !== 'true') return null;
  try {
    const saved = JSON.parse(sessionStorage.getItem(pagesKey(historyKey)) ?? 'null') as LoadedPages | null;
    // The same search still: its first page starts as the saved one did.
    return saved && saved.results.length >= first.length && first.every((p, i) => saved.results[i]?.id === p.id) ? saved : null;
  } catch {
    return null;
  }
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { input, page, searchFields } = loaderData;
  const fields = new Set(searchFields);
  const navigation = useNavigation();
  const searching = navigation.state === 'loading' && navigation.location.pathname === '/members';
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  // The member shares a location: the cards carry distances, and the distance filter is offered in their unit.
  const unit = page.distance_unit;
  // Spec section 3 search state: pages are appended; a new search (new loader data) starts again from its first page.
  const [restored] = useState(() => savedPages(location.key, page.profiles));
  const [results, setResults] = useState<ProfileSummary[]>(restored?.results ?? page.profiles);
  const [cursor, setCursor] = useState<string | null>(restored ? restored.cursor : page.next_cursor);
  const [similar, setSimilar] = useState<ProfileSummary[]>(restored?.similar ?? page.similar_results?.profiles ?? []);
  const [similarCursor, setSimilarCursor] = useState<string | null>(restored ? restored.similarCursor : page.similar_results?.next_cursor ?? null);
  const keepRestored = useRef(Boolean(restored));
  const [loadingMore, setLoadingMore] = useState<'results' | 'similar' | null>(null);
  const [country, setCountry] = useState(input.country ?? '');
  // Every country's regions, fetched once when the member picks a country the loader brought none for.
  const allRegions = useRegions(undefined, Boolean(country) && !(country in loaderData.regions));
  const queryClient = useQueryClient();
  // Phones: the filters fold away behind a button with their summary, so profiles show on the first screen.
  const [filtersOpen, setFiltersOpen] = useState(false);
  useEffect(() => {
    setFiltersOpen(false);
    if (keepRestored.current) {
      keepRestored.current = false;
      return;
    }
    setResults(page.profiles);
    setCursor(page.next_cursor);
    setSimilar(page.similar_results?.profiles ?? []);
    setSimilarCursor(page.similar_results?.next_cursor ?? null);
    setCountry(input.country ?? '');
  }, [page, input]);

  // Remember the pages shown under this history entry (only once more than the first were loaded).
  useEffect(() => {
    if (results.length <= page.profiles.length && similar.length <= (page.similar_results?.profiles.length ?? 0)) return;
    try {
      sessionStorage.setItem(pagesKey(location.key), JSON.stringify({ results, cursor, similar, similarCursor } satisfies LoadedPages));
    } catch {
      // Storage full or unavailable: going back shows the first page again.
    }
  }, [results, cursor, similar, similarCursor, page, location.key]);

  const loadMore = async (kind: 'results' | 'similar') => {
    const from = kind === 'results' ? cursor : similarCursor;
    if (!from) return;
    setLoadingMore(kind);
    const extra: Record<string, string> = { cursor: from };
    if (kind === 'similar' && page.similar_results) extra.similar = String(page.similar_results.level);
    try {
      const next = await api<SearchResult>(`/api/members.php?${searchParams(input, extra)}`);
      if (kind === 'results') {
        setResults((r) => [...r, ...next.profiles]);
        setCursor(next.next_cursor);
      } else if (next.similar_results) {
        const more = next.similar_results;
        setSimilar((r) => [...r, ...more.profiles]);
        setSimilarCursor(more.next_cursor);
      }
    } finally {
      setLoadingMore(null);
    }
  };

  const nearMe = async (place: Geocode) => {
    if (!loaderData.countries.includes(place.country)) {
      // A member who just shared a location still gets distances on the cards.
      if (loaderData.member) void revalidator.revalidate();
      return;
    }
    const known = loaderData.regions[place.country] ?? namesIn(place.country, await loadRegions(queryClient).catch(() => []));
    const regionKnown = place.countryregion && known.includes(place.countryregion);
    void navigate(`/members?${searchParams({ ...input, country: place.country, countryregion: regionKnown ? place.countryregion! : undefined })}`);
  };

  const ages = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);
  const regionOptions = country ? loaderData.regions[country] ?? namesIn(country, allRegions) : [];
  const count = page.numResults ?? 0;
  const similarLevel = page.similar_results?.level;
  const summary = [
    fields.has('gender') && (input.gender ? t(`member_search.filters_${input.gender}`) : t('member_search.filters_everyone')),
    fields.has('country') && (input.country ? [countryName(input.country, lang), input.countryregion].filter(Boolean).join(', ') : t('member_search.filters_all_countries')),
    input.distance && distanceLabel(t, input.distance),
    fields.has('age') && `${input.min_age}–${input.max_age}`,
  ].filter(Boolean).join(' · ');
  return (
    <div className="container py-4">
      <h1 className="h3 mb-3">{t('search.title')}</h1>
      <button
        type="button" className="btn btn-outline-primary w-100 d-flex align-items-center gap-2 text-start mb-3 d-md-none search-filters-toggle"
        aria-expanded={filtersOpen} aria-controls="search-form" onClick={() => setFiltersOpen((o) => !o)} data-testid="search-filters-toggle"
      >
        <SlidersHorizontal size={18} aria-hidden="true" className="flex-shrink-0" />
        <span className="fw-semibold">{t('member_search.filters')}</span>
        <span className="text-truncate small ms-auto" data-testid="search-filters-summary">{summary}</span>
      </button>
      <RouterForm
        method="get" id="search-form" className={`card card-body shadow-sm mb-4 ${filtersOpen ? '' : 'd-none d-md-block'}`} data-testid="search-form" key={JSON.stringify(input)}
      >
        <div className="row g-2 align-items-end">
          {fields.has('gender') && (
            <FormField id="search-gender" as="select" className="col-6 col-md-4 col-lg" label={t('fields.gender')} name="gender" defaultValue={input.gender ?? ''}>
              <option value="">{t('search.any')}</option>
              {GENDERS.map((g) => <option key={g} value={g}>{t(`gender.${g}`)}</option>)}
            </FormField>
          )}
          {fields.has('country') && (
            <>
              <FormField id="search-country" as="select" className="col-6 col-md-4 col-lg" label={t('fields.country')} name="country" value={country} onChange={(e) => setCountry(e.target.value)}>
                <option value="">{t('search.any')}</option>
                {loaderData.countries.map((c) => <option key={c} value={c}>{countryName(c, lang)}</option>)}
              </FormField>
              {/* A new country starts its region list afresh. */}
              <FormField
                key={country} id="search-region" as="select" className="col-12 col-md-4 col-lg" label={t('member_search.region')}
                name="countryregion" defaultValue={input.countryregion ?? ''} disabled={regionOptions.length === 0}
              >
                <option value="">{t('search.any')}</option>
                {regionOptions.map((r) => <option key={r} value={r}>{r}</option>)}
              </FormField>
            </>
          )}
          {unit && (
            <FormField id="search-distance" as="select" className="col-6 col-md-4 col-lg" label={t('member_search.distance')} name="distance" defaultValue={input.distance ?? ''}>
              <option value="">{t('search.any')}</option>
              {/* Under the "Distance" label a radius says enough ("25 km"), and it fits the column; the phone's summary says "Within 25 km". */}
              {DISTANCE_RADII.map((r) => <option key={r} value={`${r}${unit}`}>{t(unit === 'mi' ? 'member_search.distance_mi' : 'member_search.distance_km', { value: r })}</option>)}
            </FormField>
          )}
          {fields.has('age') && (
            <>
              <FormField id="search-min-age" as="select" className="col-6 col-md-4 col-lg" label={t('search.min_age')} name="min_age" defaultValue={input.min_age}>
                {ages.map((a) => <option key={a} value={a}>{a}</option>)}
              </FormField>
              <FormField id="search-max-age" as="select" className="col-6 col-md-4 col-lg" label={t('search.max_age')} name="max_age" defaultValue={input.max_age}>
                {ages.map((a) => <option key={a} value={a}>{a}</option>)}
              </FormField>
            </>
          )}
          <div className="col-12 col-md-4 col-lg-auto d-flex gap-2">
            <button type="submit" className="btn btn-primary flex-grow-1" data-testid="search-submit">{t('search.submit')}</button>
            <Link to="/members?country=" className="btn btn-outline-secondary" data-testid="search-clear">{t('member_search.clear')}</Link>
          </div>
        </div>
        {(fields.has('country') || loaderData.member) && (
          <LocationOptions onPlace={nearMe} member={loaderData.member} sharing={Boolean(unit)} onStopSharing={() => void revalidator.revalidate()} />
        )}
      </RouterForm>
      <p className="text-muted" data-testid="num-results">
        {page.numResults_capped ? t('member_search.num_results_capped', { count }) : t('search.num_results', { count })}
      </p>
      {searching ? (
        // A new search is on its way: the old results are stale, their place keeps its shape.
        <div className="row g-3" aria-busy="true" data-testid="search-loading">
          <span className="visually-hidden" role="status">{t('member_search.searching')}</span>
          <SkeletonCards count={12} />
        </div>
      ) : results.length === 0 ? (
        <EmptyState icon={SearchX} text={t('search.no_results')} action={{ to: '/members?country=', label: t('member_search.clear') }} testId="no-results" />
      ) : (
        <ResultsGrid profiles={results} hasMore={Boolean(cursor)} loading={loadingMore === 'results'} onMore={() => void loadMore('results')} testId="search-results" moreTestId="load-more" priority />
      )}
      {!searching && similarLevel && similar.length > 0 && (
        <section className="mt-5" data-testid="similar-results" aria-labelledby="similar-heading">
          <h2 className="h4 mb-1" id="similar-heading">{t('member_search.similar_title')}</h2>
          <p className="text-muted" data-testid="similar-num-results">
            {t(`member_search.similar_level_${similarLevel}`)} · {t('search.num_results', { count: page.similar_numResults ?? similar.length })}
          </p>
          <ResultsGrid profiles={similar} hasMore={Boolean(similarCursor)} loading={loadingMore === 'similar'} onMore={() => void loadMore('similar')} testId="similar-grid" moreTestId="similar-load-more" />
        </section>
      )}
    </div>
  );
}
