/**
 * The origin a request was addressed to: its Host (name and port) with the scheme it really came over (`https`
 * over TLS here or, with TRUST_PROXY, at the trusted proxy). Null for a Host that is no bare host and port.
 */
export function addressedOrigin(host: string | undefined, secure: boolean): string | null {
  if (!host || /[^\w.:[\]-]/.test(host)) return null;
  const url = `${secure ? 'https' : 'http'}://${host}`;
  return URL.canParse(url) ? new URL(url).origin : null;
}

/**
 * The origins a same-origin request of this site names in its Origin header (docs/decisions/050): the site's
 * canonical origin (PUBLIC_URL, or what docs/decisions/009 derives from its domain), which stays right behind a
 * proxy that rewrites Host; and the origin the request was addressed to, which is right wherever the site is
 * reached otherwise (its own domain without PUBLIC_URL, an address, another port). Scheme, host and port all count.
 */
export function sameSiteOrigins(canonical: string, host: string | undefined, secure: boolean): string[] {
  const own = addressedOrigin(host, secure);
  const origins = [new URL(canonical).origin];
  if (own && own !== origins[0]) origins.push(own);
  return origins;
}

/**
 * Whether an Origin header names one of `allowed` (scheme, host and port). `null` (sandboxed frames, privacy
 * redirects, file: pages) and anything that is not an http(s) origin are refused, never thrown on.
 */
export function sameOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  if (!origin || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && allowed.includes(url.origin);
}
