import { searchContracts } from '#common/contracts/search.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const searchRoutes = new ApiRoutes()
  /**
   * Member search (spec sections 3 and 4). The first page carries numResults (capped, see
   * docs/decisions/006) and similar results; `cursor` pages on, `similar=<level>&cursor=` pages the similar list.
   */
  .endpoint(searchContracts.search, async (c, { query }) => {
    const ctx = c.get('ctx');
    // Who may search and which filters the site offers are the use case's (as for the /members page).
    const { result } = await ctx.services.search.find(ctx.actor, { filters: query, network: ctx.query.network ?? null });
    return c.json(result);
  });

export const locationRoutes = new ApiRoutes()
  /** The member shares their position: the nearest town is kept (see the search service). */
  .endpoint(searchContracts.shareLocation, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.search.shareLocation(ctx.actor, body));
  })
  .endpoint(searchContracts.stopSharingLocation, async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.search.stopSharingLocation(ctx.actor));
  });
