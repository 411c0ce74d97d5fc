import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { notFound } from '../errors.ts';
import type { SmsOutboxEntry } from './sms.ts';
import { escapeHtml } from '../../http/html.ts';

const esc = escapeHtml;

/**
 * /dev/sms: the text messages the dev outbox wrote to DATA_DIR/sms-outbox. Mounted only with DEV_TOOLS=1 and no
 * SMS gateway; the messages hold payment codes, so for anyone but the operator on this machine (`allowed`, as
 * for /dev/outbox) the page is not there.
 */
export function smsOutboxViewer(outbox: { list(): SmsOutboxEntry[]; dir: string }, allowed: (c: Context) => boolean | Promise<boolean>): MiddlewareHandler {
  const viewer = new Hono().basePath('/dev/sms')
    .get('/', (c) => {
      const rows = outbox.list().map((m) => `<tr><td>${esc(m.date.replace('T', ' ').slice(0, 19))}</td><td>${esc(m.to)}</td><td>${esc(m.kind)}</td><td data-testid="sms-text">${esc(m.text)}</td></tr>`);
      return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dev SMS outbox</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:16px;color:#2b1740}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left;vertical-align:top}.note{background:#fff3cd;padding:8px 12px;border-radius:4px}</style></head>
<body><h1>Dev SMS outbox</h1><p class="note">No SMS_URL is configured: text messages are written to <code>${esc(outbox.dir)}</code> instead of being sent.</p>
<table><thead><tr><th>date (UTC)</th><th>to</th><th>kind</th><th>text</th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="4">No message yet.</td></tr>'}</tbody></table></body></html>`);
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
