import type { Context } from 'hono';

/** The dev viewers' look: a file of their own, as the site's Content-Security-Policy allows no inline style (docs/decisions/052). */
const CSS = 'body{font-family:system-ui,sans-serif;margin:0;padding:16px;color:#2b1740}table{border-collapse:collapse;width:100%}'
  + 'td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left;vertical-align:top}pre{white-space:pre-wrap;background:#f6f6f6;padding:12px}'
  + '.note{background:#fff3cd;padding:8px 12px;border-radius:4px}';

/** The stylesheet's name beside each viewer's pages (/dev/outbox/viewer.css, /dev/sms/viewer.css). */
export const DEV_VIEWER_STYLESHEET = 'viewer.css';

/** A dev viewer's page; `base` is the viewer's path, which serves the stylesheet. `title` and `body` are HTML already. */
export function devViewerPage(base: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<link rel="stylesheet" href="${base}/${DEV_VIEWER_STYLESHEET}"></head><body>${body}</body></html>`;
}

export function devViewerStylesheet(c: Context): Response {
  return c.body(CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' });
}
