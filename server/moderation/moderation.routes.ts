import { moderationContracts as api } from '#common/contracts/moderation.ts';
import { photoContracts } from '#common/contracts/photos.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { AppError } from '../infra/errors.ts';

/** Moderation of member content: the photo review queue (profile and chat photos), and the queues of reports, notices, appeals and names and about-me texts. */
export const moderationRoutes = new ApiRoutes()
  /**
   * Moderators (a console session or a staff API token), for the sites they reach. GET: pending profile and chat
   * photos; GET ?file=name: a file's bytes; POST {id, action: 'approve' | 'reject', kind?: 'profile' | 'chat'}.
   */
  .endpoint(photoContracts.moderationQueue, async (c, { query, staff }) => {
    const ctx = c.get('ctx');
    if (query.file) {
      const bytes = await ctx.services.photos.moderationFile(staff, query.file);
      if (!bytes) throw new AppError(404, 'not_found');
      return new Response(new Uint8Array(bytes), { headers: { 'Content-Type': 'image/webp', 'Cache-Control': 'private, no-store' } });
    }
    return c.json({ photos: await ctx.services.photos.pending(staff), chat_photos: await ctx.services.chat.pendingPhotos(staff) });
  })
  .endpoint(photoContracts.moderate, async (c, { body: { id, action, kind }, staff }) => {
    const ctx = c.get('ctx');
    const photo = kind === 'chat' ? await ctx.services.chat.moderatePhoto(staff, id, action, { ip: ctx.clientAddress }) : await ctx.services.photos.moderate(staff, id, action, { ip: ctx.clientAddress });
    return c.json({ photo });
  })
  .endpoint(api.reportQueue, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.reportQueue(staff, query.page)))
  .endpoint(api.claimReport, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.claimReport(staff, body.id, { ip: ctx.clientAddress }));
  })
  .endpoint(api.decideReport, async (c, { body: { id, ...input }, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.decideReport(staff, id, input, { ip: ctx.clientAddress }));
  })
  .endpoint(api.noticeQueue, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.noticeQueue(staff, query.page)))
  .endpoint(api.claimNotice, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.claimNotice(staff, body.reference, { ip: ctx.clientAddress }));
  })
  .endpoint(api.decideNotice, async (c, { body: { reference, ...input }, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.decideNotice(staff, reference, input, { ip: ctx.clientAddress }));
  })
  .endpoint(api.appealQueue, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.appealQueue(staff, query.page)))
  .endpoint(api.claimAppeal, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.claimAppeal(staff, body.id, { ip: ctx.clientAddress }));
  })
  .endpoint(api.decideAppeal, async (c, { body: { id, ...input }, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.decideAppeal(staff, id, input, { ip: ctx.clientAddress }));
  })
  .endpoint(api.textQueue, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.textQueue(staff, query.page)))
  .endpoint(api.claimText, async (c, { body, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.claimText(staff, body.id, { ip: ctx.clientAddress }));
  })
  .endpoint(api.decideText, async (c, { body: { id, ...input }, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.decideText(staff, id, input, { ip: ctx.clientAddress }));
  })
  .endpoint(api.claimPhoto, async (c, { body: { kind, id }, staff }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.console.claimPhoto(staff, { kind, id }, { ip: ctx.clientAddress }));
  });
