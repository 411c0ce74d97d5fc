import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { rateLimit, validBody, type C } from '../http/helpers.ts';
import { mailEventBody, reenableBody } from '#common/contracts/notifications.ts';
import { notificationsUpdateSchema } from '#common/notifications.ts';
import { AppError, isAppError } from '../infra/errors.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import { escapeHtml } from '../http/html.ts';

const esc = escapeHtml;

/** A small page of its own: people arrive here from a mail, often in a mail app's browser. */
function unsubscribePage(c: C, lang: Language, body: string, status: 200 | 400 = 200) {
  const { translator, site } = c.get('ctx');
  const title = translator.t(lang, 'unsubscribe.title');
  return c.html(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} · ${esc(site.name)}</title>
<style>body{font-family:Arial,Helvetica,sans-serif;color:#2b1740;background:#f4f1f7;margin:0;padding:32px 16px}main{max-width:480px;margin:auto;background:#fff;border-radius:8px;padding:24px}button{background:#1a9c9c;color:#fff;border:0;border-radius:6px;padding:12px 20px;font-size:16px;cursor:pointer}a{color:#1a9c9c}</style></head>
<body><main><p><strong>${esc(site.name)}</strong></p><h1 style="font-size:22px">${esc(title)}</h1>${body}</main></body></html>`, status);
}

export const notificationsRoutes = new Hono<AppEnv>()
  /** {email: {category: on}, notifications_disabled, invisible, read_receipts} */
  .get('/notifications.php', async (c) => c.json(await c.get('ctx').services.notifications.settings(c.get('ctx').actor)))

  /** {email?: {category: boolean}, invisible?: boolean, read_receipts?: boolean} */
  .put('/notifications.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.notifications.update(ctx.actor, await validBody(c, notificationsUpdateSchema)));
  })

  /** {reason}: the member fixed the cause (e.g. a full mailbox) and turns e-mail on again. */
  .delete('/notifications-disabled.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.notifications.reenable(ctx.actor, (await validBody(c, reenableBody)).reason));
  })

  /** The unsubscribe link of a category mail: a button, because link scanners open every link in a mail. */
  .get('/unsubscribe.php', (c) => {
    const ctx = c.get('ctx');
    const q = c.req.query();
    const category = typeof q.c === 'string' ? q.c : '';
    const label = ctx.translator.t(ctx.lang, `notifications.categories.${category}.label`);
    const action = `/api/unsubscribe.php?u=${encodeURIComponent(q.u ?? '')}&c=${encodeURIComponent(category)}&s=${encodeURIComponent(q.s ?? '')}`;
    return unsubscribePage(c, ctx.lang, `<p>${esc(ctx.translator.t(ctx.lang, 'unsubscribe.question', { category: label }))}</p>
<form method="post" action="${esc(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" data-testid="unsubscribe-confirm">${esc(ctx.translator.t(ctx.lang, 'unsubscribe.confirm'))}</button></form>`);
  })

  /** RFC 8058 one-click: POST turns exactly that category off, without a session. */
  .post('/unsubscribe.php', async (c) => {
    const ctx = c.get('ctx');
    await rateLimit(c, ctx.services.rateLimits.links);
    const q = c.req.query();
    try {
      const done = await ctx.services.notifications.unsubscribe(q.u, q.c, q.s);
      const lang = isLanguage(done.language) ? done.language : ctx.lang;
      const label = ctx.translator.t(lang, `notifications.categories.${done.category}.label`);
      return unsubscribePage(c, lang, `<p data-testid="unsubscribe-done">${esc(ctx.translator.t(lang, 'unsubscribe.done', { category: label }))}</p>
<p><a href="/notifications">${esc(ctx.translator.t(lang, 'unsubscribe.manage'))}</a></p>`);
    } catch (error) {
      if (isAppError(error) && error.status === 400) return unsubscribePage(c, ctx.lang, `<p>${esc(ctx.translator.t(ctx.lang, 'errors.unsubscribe_link_invalid'))}</p>`, 400);
      throw error;
    }
  })

  /**
   * Bounces and spam complaints from the mail provider: POST {email, type, detail?} with the header
   * X-Mail-Webhook-Secret: MAIL_WEBHOOK_SECRET. type: bounce, spam_complaint (or complaint) or list_unsubscribe.
   */
  .post('/mail-events.php', async (c) => {
    const ctx = c.get('ctx');
    const secret = ctx.env.MAIL_WEBHOOK_SECRET;
    if (!secret) throw new AppError(404, 'not_found');
    const given = Buffer.from(c.req.header('x-mail-webhook-secret') ?? '');
    const expected = Buffer.from(secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(403, 'forbidden');
    return c.json({ ok: true, ...(await ctx.services.notifications.recordMailEvent(await validBody(c, mailEventBody))) });
  });
