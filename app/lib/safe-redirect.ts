const HERE = 'http://this.site.invalid';

/**
 * A path of this site to send the visitor on to, else `fallback`: never another origin (`//host`, `/\host`, a
 * scheme) and never a control character. It comes back as the URL parser writes it, percent-encoded, so it fits in
 * a Location header, which takes no character above U+00FF (a `?redirect=/%C4%80` made the log-in's redirect throw).
 */
export function safeRedirect(to: string | null | undefined, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  if (!to || to.length > 2000 || !to.startsWith('/') || /[\u0000-\u001f\u007f]/.test(to)) return fallback;
  const url = URL.canParse(to, HERE) ? new URL(to, HERE) : null;
  // The parser resolves dot segments: `/..//host` comes back as `//host`, which a browser reads as another origin.
  if (url?.origin !== HERE || url.pathname.startsWith('//')) return fallback;
  return url.pathname + url.search + url.hash;
}
