import { Hono } from 'hono';
import { searchSchema } from '#common/schemas.ts';
import { AppError } from '../infra/errors.ts';
import type { AppEnv } from '../http/context.ts';
import { parse } from '../http/helpers.ts';
import { offeredFilters, searchAllowed } from './search-access.ts';

export const searchRoutes = new Hono<AppEnv>()
  /**
   * Member search (spec sections 3 and 4). The first page carries numResults (capped, see
   * docs/decisions/006) and similar results; `cursor` pages on, `similar=<level>&cursor=` pages the similar list.
   */
  .get('/members.php', async (c) => {
    const ctx = c.get('ctx');
    if (!searchAllowed(ctx)) throw new AppError(403, 'authentication_required');
    const input = offeredFilters(parse(searchSchema, c.req.query()), ctx.site.searchFields);
    return c.json(await ctx.services.search.search(ctx.userId, input));
  });
