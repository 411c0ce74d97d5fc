/**
 * A path of this site to send the visitor on to, else `fallback`: never another origin (`//host`, `/\host`, a
 * scheme) and never a control character (it would not fit in a Location header).
 */
export function safeRedirect(to: string | null | undefined, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  return to && to.length <= 2000 && to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/\\') && !/[\u0000-\u001f\u007f]/.test(to) ? to : fallback;
}
