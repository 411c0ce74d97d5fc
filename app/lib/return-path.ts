/**
 * `to` with the way back after paying: `return=` set to `back` (a path on this site, which the pages and the
 * order check again). Without `back`, `to` as it is.
 */
export function withReturn(to: string, back: string | null | undefined): string {
  if (!back) return to;
  return `${to}${to.includes('?') ? '&' : '?'}return=${encodeURIComponent(back)}`;
}
