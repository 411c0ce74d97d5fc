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

/**
 * The client as per-address limits count it (`ctx.clientIp`), derived once per request so that every
 * limit keyed on the address gets the same answer:
 * - an IPv4 address stays as it is, and an IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, what a
 *   dual-stack socket or an IPv6 proxy reports for an IPv4 client) is that IPv4 address;
 * - an IPv6 address becomes its network of `ipv6Prefix` bits (`2001:db8:1:2::/64`): a household or a
 *   server is given a whole /64 (or more) and may use any address in it, so counting single addresses
 *   would hand one client 2^64 budgets;
 * - anything else (no socket address) is kept as it is.
 */
export function limitKey(address: string, ipv6Prefix: number): string {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(plain);
  if (family !== 6) return family === 4 ? plain : address;
  const groups = ipv6Groups(plain);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  const masked = groups.map((g, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - 16 * i));
    return g & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${formatIpv6(masked)}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** RFC 5952 text: lower-case hex without leading zeros, the longest run of two or more zero groups as `::`. */
function formatIpv6(groups: number[]): string {
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}
