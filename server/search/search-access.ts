import { MAX_AGE, MIN_AGE } from '#common/constants.ts';
import type { SearchInput } from '#common/schemas.ts';
import type { RequestContext } from '../http/context.ts';

/** Spec section 4: search is open when signed in, when logged_out_search is not none, or for traffic with a source. */
export function searchAllowed(ctx: Pick<RequestContext, 'userId' | 'site' | 'query'>): boolean {
  if (ctx.userId) return true;
  if (ctx.site.loggedOutSearch !== 'none') return true;
  return ctx.site.loggedOutSearchTrafficsource !== 'none' && Boolean(ctx.query.network);
}

/**
 * The site's search_fields decide which filters the page offers; a filter that is not offered is not
 * applied either. The region belongs to the country filter.
 */
export function offeredFilters(input: SearchInput, searchFields: string[]): SearchInput {
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
