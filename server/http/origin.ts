/**
 * Whether an Origin header names this host. `null` (sandboxed frames, privacy redirects, file:
 * pages) and anything that is not an http(s) origin are refused, never thrown on.
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host;
}
