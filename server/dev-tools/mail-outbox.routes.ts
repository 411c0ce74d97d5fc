import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Env } from '../env.ts';
import { notFound } from '../infra/errors.ts';
import type { OutboxEntry } from '../infra/mail/transport.ts';
import { DEV_VIEWER_STYLESHEET, devViewerPage, devViewerStylesheet } from '../infra/dev-viewer-page.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const page = (title: string, body: string) => devViewerPage('/dev/outbox', esc(title), body);

/** Headers a proxy adds: their presence means the request did not come straight from this machine. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'via'];

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  return /^127(\.\d{1,3}){3}$/.test(a) || a === '::1' || /^::ffff:127(\.\d{1,3}){3}$/.test(a);
}

/**
 * The operator at this machine: the TCP peer is loopback, no proxy is configured (TRUST_PROXY) and the
 * request carries no forwarding header. A reverse proxy on the same machine also connects from loopback,
 * so any sign of one refuses the request: outsiders reach the site only through it.
 */
export function isOperatorRequest(c: Context, env: Pick<Env, 'TRUST_PROXY'>): boolean {
  if (env.TRUST_PROXY) return false;
  if (FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined)) return false;
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return isLoopbackAddress(incoming?.socket?.remoteAddress);
}

/**
 * /dev/outbox: the mails the dev outbox wrote to DATA_DIR/outbox. Mounted only with DEV_TOOLS=1 and no
 * SMTP_URL, so a deployment that sends real mail has no such page. The mails hold password reset and
 * sign-in links, so for anyone but the operator (`allowed`: see devViewerGate) the viewer is not there: the
 * request goes on to the site's ordinary 404 page, as for any unknown path (a JSON 404 for the JSON list).
 */
export function outboxViewer(
  outbox: { list(): OutboxEntry[]; read(id: string): OutboxEntry | null; dir: string },
  allowed: (c: Context) => boolean | Promise<boolean>,
): MiddlewareHandler {
  const viewer = outboxRoutes(outbox);
  return async (c, next) => {
    if (await allowed(c)) return viewer.fetch(c.req.raw, c.env);
    if (c.req.path.endsWith('.json')) throw notFound();
    await next();
  };
}

function outboxRoutes(outbox: { list(): OutboxEntry[]; read(id: string): OutboxEntry | null; dir: string }) {
  return new Hono().basePath('/dev/outbox')
    .get(`/${DEV_VIEWER_STYLESHEET}`, devViewerStylesheet)
    .get('/', (c) => {
      const rows = outbox.list().map((m) => `<tr><td>${esc(m.date.replace('T', ' ').slice(0, 19))}</td><td>${esc(m.to)}</td><td>${esc(m.kind)}</td><td><a href="/dev/outbox/${m.id}" data-testid="outbox-mail">${esc(m.subject)}</a></td></tr>`);
      return c.html(page('Dev outbox', `<h1>Dev outbox</h1><p class="note">No SMTP_URL is configured: mails are written to <code>${esc(outbox.dir)}</code> instead of being sent.</p>
<table><thead><tr><th>date (UTC)</th><th>to</th><th>template</th><th>subject</th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="4">No mail yet.</td></tr>'}</tbody></table>`));
    })
    .get('/mails.json', (c) => {
      const to = c.req.query('to')?.toLowerCase();
      return c.json({ mails: outbox.list().filter((m) => !to || m.to.toLowerCase() === to) });
    })
    .get('/:id/html', (c) => {
      const mail = outbox.read(c.req.param('id'));
      return mail ? c.html(mail.html) : c.notFound();
    })
    .get('/:id', (c) => {
      const mail = outbox.read(c.req.param('id'));
      if (!mail) return c.notFound();
      const headers = Object.entries({ From: mail.from, To: mail.to, Subject: mail.subject, Date: mail.date, ...mail.headers })
        .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
      return c.html(page(mail.subject, `<p><a href="/dev/outbox">← all mails</a></p><h1>${esc(mail.subject)}</h1><table>${headers}</table>
<p><a href="/dev/outbox/${mail.id}/html" data-testid="outbox-html">HTML part</a> · <code>${esc(mail.id)}.eml</code></p><h2>Text part</h2><pre data-testid="outbox-text">${esc(mail.text)}</pre>`));
    });
}
