import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { notFound } from '../infra/errors.ts';
import type { SmsOutboxEntry } from '../infra/sms/sms.ts';
import { escapeHtml } from '../infra/html.ts';
import { DEV_VIEWER_STYLESHEET, devViewerPage, devViewerStylesheet } from '../infra/dev-viewer-page.ts';

const esc = escapeHtml;

/**
 * /dev/sms: the text messages the dev outbox wrote to DATA_DIR/sms-outbox. Mounted only with DEV_TOOLS=1 and no
 * SMS gateway; the messages hold payment codes, so for anyone but the operator on this machine (`allowed`, as
 * for /dev/outbox) the page is not there.
 */
export function smsOutboxViewer(outbox: { list(): SmsOutboxEntry[]; dir: string }, allowed: (c: Context) => boolean | Promise<boolean>): MiddlewareHandler {
  const viewer = new Hono().basePath('/dev/sms')
    .get(`/${DEV_VIEWER_STYLESHEET}`, devViewerStylesheet)
    .get('/', (c) => {
      const rows = outbox.list().map((m) => `<tr><td>${esc(m.date.replace('T', ' ').slice(0, 19))}</td><td>${esc(m.to)}</td><td>${esc(m.kind)}</td><td data-testid="sms-text">${esc(m.text)}</td></tr>`);
      return c.html(devViewerPage('/dev/sms', 'Dev SMS outbox', `<h1>Dev SMS outbox</h1><p class="note">No SMS_URL is configured: text messages are written to <code>${esc(outbox.dir)}</code> instead of being sent.</p>
<table><thead><tr><th>date (UTC)</th><th>to</th><th>kind</th><th>text</th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="4">No message yet.</td></tr>'}</tbody></table>`));
    })
    .get('/messages.json', (c) => {
      const to = c.req.query('to');
      return c.json({ messages: outbox.list().filter((m) => !to || m.to === to) });
    });
  return async (c, next) => {
    if (await allowed(c)) return viewer.fetch(c.req.raw, c.env);
    if (c.req.path.endsWith('.json')) throw notFound();
    await next();
  };
}
