import { reportsContracts } from '#common/contracts/reports.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { limitedBy } from '../http/helpers.ts';

/** Token links are guessed nowhere near: the links limit keeps trying them slow, as for the other mailed links. */
const links = limitedBy((limits) => limits.links);

/** Members' reports, and the statements of reasons with their appeals (decision 057). */
export const reportsRoutes = new ApiRoutes()
  .endpoint(reportsContracts.report, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.reports.report(ctx.actor, body), 201);
  })
  .endpoint(reportsContracts.mine, async (c) => {
    const ctx = c.get('ctx');
    return c.json({ reports: await ctx.services.reports.mine(ctx.actor) });
  })
  .endpoint(reportsContracts.statement, { before: [links] }, async (c, { query }) => {
    const ctx = c.get('ctx');
    return c.json({ statement: await ctx.services.statements.view(ctx.actor, query.id, query.token) });
  })
  .endpoint(reportsContracts.appeal, { before: [links] }, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json({ statement: await ctx.services.statements.appeal(ctx.actor, body.id, body.token, { text: body.text }) }, 201);
  });
