import type { RequestContext } from '../http/context.ts';

/** Spec section 4: search is open when signed in, when logged_out_search is not none, or for traffic with a source. */
export function searchAllowed(ctx: Pick<RequestContext, 'userId' | 'site' | 'query'>): boolean {
  if (ctx.userId) return true;
  if (ctx.site.loggedOutSearch !== 'none') return true;
  return ctx.site.loggedOutSearchTrafficsource !== 'none' && Boolean(ctx.query.network);
}
