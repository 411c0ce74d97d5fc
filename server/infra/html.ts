/** Text made safe for HTML text and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/**
 * ` nonce="…"` for a style or script element of a page the server writes: the Content-Security-Policy allows
 * inline elements only with the response's nonce (docs/decisions/052). Nothing without one (development has no policy).
 */
export function nonceAttribute(nonce: string | undefined): string {
  return nonce ? ` nonce="${escapeHtml(nonce)}"` : '';
}
