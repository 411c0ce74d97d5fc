import { supportContracts as api } from '#common/contracts/support.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { idempotencyKey, needsIdempotencyKey } from '../http/helpers.ts';
import { toWire } from '../http/wire.ts';

/** Member support and the automatic flags, for staff with a console session or a staff API token. */
export const supportRoutes = new ApiRoutes()
  .endpoint(api.findMembers, async (c, { query, staff }) => {
    const ctx = c.get('ctx');
    const found = await ctx.services.console.findMembers(staff, { query: query.q, page: query.page, order: query.order }, { ip: ctx.clientAddress });
    return c.json({ members: toWire(found.members), has_more: found.hasMore });
  })
  .endpoint(api.member, async (c, { query, staff }) => {
    const ctx = c.get('ctx');
    return c.json(toWire(await ctx.services.console.member(staff, query.id, { ip: ctx.clientAddress })));
  })
  .endpoint(api.conversation, async (c, { query, staff }) => {
    const ctx = c.get('ctx');
    return c.json(toWire(await ctx.services.console.readConversation(staff, query.member_id, query.id, { ip: ctx.clientAddress })));
  })
  .endpoint(api.adjustCredits, { before: [needsIdempotencyKey] }, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    const input = { credits: body.credits, reason: body.reason, idempotencyKey: idempotencyKey(c) };
    return c.json(await ctx.services.console.adjustCredits(staff, body.member_id, input, { ip: ctx.clientAddress }));
  })
  .endpoint(api.endSessions, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.endSessions(staff, body.member_id, { ip: ctx.clientAddress }));
  })
  .endpoint(api.resendActivation, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    await ctx.services.console.resendActivation(staff, body.member_id, { ip: ctx.clientAddress });
    return c.json({ ok: true as const });
  })
  .endpoint(api.sendPasswordReset, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    await ctx.services.console.sendPasswordReset(staff, body.member_id, { ip: ctx.clientAddress });
    return c.json({ ok: true as const });
  })
  .endpoint(api.suspend, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.suspendMember(staff, body.member_id, { days: body.days, ground: body.ground, facts: body.facts }, { ip: ctx.clientAddress }));
  })
  .endpoint(api.endSuspension, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    await ctx.services.console.endSuspension(staff, body.member_id, body.reason, { ip: ctx.clientAddress });
    return c.json({ ok: true as const });
  })
  .endpoint(api.flags, async (c, { query, staff }) => {
    const { flags, counts } = await c.get('ctx').services.console.flags(staff, { after: query.after });
    return c.json({ flags: toWire(flags), counts });
  })
  .endpoint(api.flag, async (c, { query, staff }) => {
    const ctx = c.get('ctx');
    return c.json(toWire(await ctx.services.console.flag(staff, query.id, { ip: ctx.clientAddress })));
  })
  .endpoint(api.resolveFlag, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    await ctx.services.console.resolveFlag(staff, body.id, { ip: ctx.clientAddress });
    return c.json({ ok: true as const });
  });
