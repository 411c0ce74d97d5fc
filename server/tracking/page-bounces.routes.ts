import { activityContracts } from '#common/contracts/push.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { limitedBy } from '../http/helpers.ts';

export const pageBounceRoutes = new ApiRoutes()
  /** Beacon from a page opened with `?lb`: {path, seconds}. Anyone may send one (landers are for visitors). */
  .endpoint(activityContracts.pageBounce, { before: [limitedBy((limits) => limits.pageBounces)] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    await ctx.services.pageBounces.record(ctx.site.id, body, ctx.tracking);
    return c.body(null, 204);
  })

  /** The report for this site, for its admins (a console session or a staff API token). */
  .endpoint(activityContracts.pageBounceReport, async (c, { staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.pageBounces.report(staff, ctx.site.id));
  });
