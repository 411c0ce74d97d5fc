import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiRoutes } from '../http/endpoint.ts';
import { limitedBy, type C } from '../http/helpers.ts';
import { notificationContracts } from '#common/contracts/notifications.ts';
import { AppError, isAppError } from '../infra/errors.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import { escapeHtml, nonceAttribute } from '../infra/html.ts';

const esc = escapeHtml;
/** A link's field as it came, for the page to carry on to the form. */
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The mail provider's webhook needs the shared secret (X-Mail-Webhook-Secret: MAIL_WEBHOOK_SECRET), checked before
 * the body is read; without a configured secret the endpoint does not exist.
 */
const mailWebhookSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = c.get('ctx').env.MAIL_WEBHOOK_SECRET;
  if (!secret) throw new AppError(404, 'not_found');
  const given = Buffer.from(c.req.header('x-mail-webhook-secret') ?? '');
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(403, 'forbidden');
  await next();
};

/** A small page of its own: people arrive here from a mail, often in a mail app's browser. */
function unsubscribePage(c: C, lang: Language, body: string, status: 200 | 400 = 200) {
  const { translator, site, nonce } = c.get('ctx');
  const title = translator.t(lang, 'unsubscribe.title');
  return c.html(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} · ${esc(site.name)}</title>
<style${nonceAttribute(nonce)}>body{font-family:Arial,Helvetica,sans-serif;color:#2b1740;background:#f4f1f7;margin:0;padding:32px 16px}main{max-width:480px;margin:auto;background:#fff;border-radius:8px;padding:24px}button{background:#1a9c9c;color:#fff;border:0;border-radius:6px;padding:12px 20px;font-size:16px;cursor:pointer}a{color:#1a9c9c}h1{font-size:22px}</style></head>
<body><main><p><strong>${esc(site.name)}</strong></p><h1>${esc(title)}</h1>${body}</main></body></html>`, status);
}

export const notificationsRoutes = new ApiRoutes()
  /** {email: {category: on}, notifications_disabled, invisible, read_receipts} */
  .endpoint(notificationContracts.settings, async (c) => c.json(await c.get('ctx').services.notifications.settings(c.get('ctx').actor)))

  /** {email?: {category: boolean}, invisible?: boolean, read_receipts?: boolean} */
  .endpoint(notificationContracts.update, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.notifications.update(ctx.actor, body));
  })

  /** {reason}: the member fixed the cause (e.g. a full mailbox) and turns e-mail on again. */
  .endpoint(notificationContracts.reenable, async (c, { body }) => {
    const ctx = c.get('ctx');
    return c.json(await ctx.services.notifications.reenable(ctx.actor, body.reason));
  })

  /** The unsubscribe link of a category mail: a button, because link scanners open every link in a mail. */
  .endpoint(notificationContracts.unsubscribePage, (c, { query }) => {
    const ctx = c.get('ctx');
    const category = asText(query.c);
    const label = ctx.translator.t(ctx.lang, `notifications.categories.${category}.label`);
    const action = `/api/unsubscribe.php?u=${encodeURIComponent(asText(query.u))}&c=${encodeURIComponent(category)}&s=${encodeURIComponent(asText(query.s))}`;
    return unsubscribePage(c, ctx.lang, `<p>${esc(ctx.translator.t(ctx.lang, 'unsubscribe.question', { category: label }))}</p>
<form method="post" action="${esc(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" data-testid="unsubscribe-confirm">${esc(ctx.translator.t(ctx.lang, 'unsubscribe.confirm'))}</button></form>`);
  })

  /** RFC 8058 one-click: POST turns exactly that category off, without a session. */
  .endpoint(notificationContracts.unsubscribe, { before: [limitedBy((limits) => limits.links)] }, async (c, { query }) => {
    const ctx = c.get('ctx');
    try {
      const done = await ctx.services.notifications.unsubscribe(query.u, query.c, query.s);
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
  .endpoint(notificationContracts.mailEvent, { before: [mailWebhookSecret] }, async (c, { body }) => c.json({
    ok: true, ...(await c.get('ctx').services.notifications.recordMailEvent(body)),
  }));
