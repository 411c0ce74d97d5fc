import { COUNTRIES, MAX_AGE, MIN_AGE } from '#common/constants.ts';
import { soughtGender } from '#common/profile.ts';
import type { Gender } from '#common/constants.ts';
import { searchSchema, type SearchInput } from '#common/schemas.ts';
import { nicheSearchDefaults } from '#common/site-theme.ts';
import type { Actor } from '../actor.ts';
import { AppError } from '../infra/errors.ts';
import type { Site } from '../settings/settings.service.ts';
import { siteOf } from '../accounts/contact-rules.ts';

type SearchSite = Pick<Site, 'countries' | 'niche' | 'searchFields' | 'loggedOutSearch' | 'loggedOutSearchTrafficsource'>;

/** Spec section 4: search is open when signed in, when logged_out_search is not none, or for traffic with a source. */
function searchAllowed(actor: Actor, site: SearchSite, network: string | null): boolean {
  if (actor.kind === 'member') return true;
  if (site.loggedOutSearch !== 'none') return true;
  return site.loggedOutSearchTrafficsource !== 'none' && Boolean(network);
}

/**
 * The site's search_fields decide which filters the page offers; a filter that is not offered is not
 * applied either. The region belongs to the country filter.
 */
function offeredFilters(input: SearchInput, searchFields: string[]): SearchInput {
  const fields = new Set(searchFields);
  const out = { ...input };
  if (!fields.has('gender')) out.gender = undefined;
  if (!fields.has('country')) {
    out.country = undefined;
    out.countryregion = undefined;
  }
  if (!out.country) out.countryregion = undefined;
  if (!fields.has('age')) {
    out.min_age = MIN_AGE;
    out.max_age = MAX_AGE;
  }
  return out;
}

/** What a search asks for, from the search API and the search page alike. */
export interface FindInput {
  /** The filters the request names; none (a first visit to the search page): the actor's own starting point. */
  filters?: SearchInput;
  /** The request's traffic source (`?network=`): where the site says so, visitors may search with one. */
  network: string | null;
  /** Where the request comes from (the CDN's header or GeoIP): a first search looks there when the site serves it. */
  requestCountry?: string | null;
}

/** Who may search, which filters the site offers, and where a search starts: the rules around the search itself. */
export function createSearchRules<R, S extends { gender: Gender | null; sexuality: string | null }>(deps: {
  site: (siteId: number) => Promise<SearchSite>;
  /** What the search needs of the searching member, read once for the starting point and the search. */
  searcher: (actor: Actor) => Promise<S>;
  search: (actor: Actor, input: SearchInput, options?: { shopWindow?: boolean; searcher?: S }) => Promise<R>;
}) {
  async function siteFor(actor: Actor): Promise<SearchSite> {
    const siteId = siteOf(actor);
    if (siteId === null) throw new AppError(403, 'authentication_required');
    return deps.site(siteId);
  }

  /**
   * A first search, with no filters chosen: the visitor's own country when the site serves it, the site's niche
   * (who the site is about, docs/decisions/038), and a member's own "looking for" answer over the niche's gender.
   */
  function startingPoint(searcher: S, site: SearchSite, requestCountry: string | null): SearchInput {
    const countries = site.countries.length ? site.countries : COUNTRIES;
    const country = requestCountry && countries.includes(requestCountry) ? requestCountry : undefined;
    const sought = searcher.gender ? soughtGender(searcher.gender, searcher.sexuality) : undefined;
    return searchSchema.parse({ country, ...nicheSearchDefaults(site.niche), ...(sought && { gender: sought }) });
  }

  return {
    /**
     * Member search for the search API and the search page alike (spec sections 3 and 4): refused (403
     * authentication_required) to a visitor the site does not let search, started from the actor's defaults when
     * the request names no filters, and narrowed to the filters the site offers. Returns the filters it searched
     * with (the page's form shows them) and the result.
     */
    async find(actor: Actor, input: FindInput): Promise<{ filters: SearchInput; result: R }> {
      const site = await siteFor(actor);
      if (!searchAllowed(actor, site, input.network)) throw new AppError(403, 'authentication_required');
      const searcher = await deps.searcher(actor);
      const chosen = input.filters ?? startingPoint(searcher, site, input.requestCountry ?? null);
      const filters = offeredFilters(chosen, site.searchFields);
      return { filters, result: await deps.search(actor, filters, { searcher }) };
    },

    /**
     * Who the site is about (its niche's search), shown to visitors on the home and sign-up pages whatever search allows:
     * the shop window (approved photos, not new members, decision 076).
     */
    async showcase(actor: Actor): Promise<R> {
      const site = await siteFor(actor);
      return deps.search(actor, searchSchema.parse(nicheSearchDefaults(site.niche)), { shopWindow: true });
    },
  };
}
