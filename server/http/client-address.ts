import { isIP } from 'node:net';

/**
 * The client's address behind `hops` trusted proxies. Each proxy appends the address it received
 * the request from to X-Forwarded-For, so only the rightmost `hops` entries were written by
 * proxies we trust; everything left of them is whatever the client sent. Counting from the
 * right: addresses = [...forwarded, socket], client = addresses[len - 1 - hops]. An entry that
 * is not an IP address stops the walk: the nearest trusted one is used instead.
 */
export function clientAddress(forwardedFor: string | undefined, socket: string | undefined, hops: number): string {
  let ip = socket ?? 'local';
  if (hops <= 0 || !forwardedFor) return ip;
  const entries = forwardedFor.split(',').map((s) => s.trim());
  for (let step = 1; step <= hops; step++) {
    const next = entries[entries.length - step];
    if (next === undefined || isIP(next) === 0) break;
    ip = next;
  }
  return ip;
}

/** The scheme the nearest trusted proxy saw (the last X-Forwarded-Proto entry), else the connection's own. */
export function forwardedProto(header: string | undefined, own: string, hops: number): string {
  if (hops <= 0 || !header) return own;
  const last = header.split(',').at(-1)?.trim().toLowerCase();
  return last === 'http' || last === 'https' ? last : own;
}
