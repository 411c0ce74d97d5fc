import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent, type AgentOptions, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Outgoing requests to addresses a member chose (push endpoints) must reach the public internet only:
 * never this machine, the local network or a cloud metadata service. The host name is checked when the
 * address is given, and the address again when the connection is made, so a name that later resolves to
 * a private address (DNS rebinding) is refused too.
 */

type Range = readonly [prefix: readonly number[], bits: number];

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const V4_BLOCKED: readonly Range[] = [
  [[0], 8], // "this network", 0.0.0.0 unspecified
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata services)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];

/** IPv6: only global unicast (2000::/3) is public, minus these special ranges. */
const V6_GLOBAL: Range = [[0x20], 3];
const V6_BLOCKED: readonly Range[] = [
  [[0x20, 0x01, 0x00], 23], // protocol assignments, Teredo
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x20, 0x02], 16], // 6to4 (embeds any IPv4 address)
  [[0x3f, 0xff], 20], // documentation
];
/** ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64): judged by the IPv4 address inside. */
const V6_MAPPED: readonly number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const V6_NAT64: readonly number[] = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];

function inRange(bytes: readonly number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (with or without an embedded dotted IPv4 tail). */
function v6Bytes(address: string): number[] {
  let text = address;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = v4Bytes(dotted[1]);
    text = text.slice(0, -dotted[1].length) + '0:0';
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * Is this IP address public unicast? Private, loopback, link-local, unique-local, multicast, CGNAT,
 * documentation, reserved and unspecified addresses are not, in either family, also when an IPv4
 * address hides inside an IPv6 one. Anything that is not an IP address is not public either.
 */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) {
    const bytes = v4Bytes(ip);
    return !V4_BLOCKED.some((r) => inRange(bytes, r));
  }
  if (family !== 6) return false;
  const bytes = v6Bytes(ip.toLowerCase());
  if (inRange(bytes, [V6_MAPPED, 96]) || inRange(bytes, [V6_NAT64, 96])) return isPublicAddress(bytes.slice(12).join('.'));
  return inRange(bytes, V6_GLOBAL) && !V6_BLOCKED.some((r) => inRange(bytes, r));
}

/** The error a refused connection fails with; it never carries the full URL (push endpoints are secret). */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED';
  constructor(readonly host: string, readonly address: string) {
    super(`refused to connect to ${host}: ${address} is not a public address`);
    this.name = 'AddressRefusedError';
  }
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * An HTTPS agent that connects only to public addresses: a host given as an IP address is checked
 * before connecting, a host name is resolved and refused when any of its addresses is not public (the
 * socket then connects to the checked address, so the answer cannot change in between).
 * `resolve` replaces DNS in tests; the TLS options (e.g. `ca`) pass on to the agent.
 */
export function createPublicOnlyAgent(options: AgentOptions & { resolve?: Resolver } = {}): Agent {
  const { resolve = systemResolver, ...agentOptions } = options;

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then((found) => {
      const refused = found.find((a) => !isPublicAddress(a.address));
      if (refused || found.length === 0) throw new AddressRefusedError(hostname, refused?.address ?? 'no address');
      if (lookupOptions.all) callback(null, found);
      else callback(null, found[0].address, found[0].family);
    }).catch((error: NodeJS.ErrnoException) => callback(error, ''));
  };

  class PublicOnlyAgent extends Agent {
    override createConnection(connectOptions: RequestOptions, callback?: (error: Error | null, socket: Duplex) => void) {
      const host = (connectOptions.host ?? connectOptions.hostname ?? '').replace(/^\[|\]$/g, '');
      // An IP address is connected to without a lookup, so it is checked here.
      if (isIP(host) && !isPublicAddress(host)) {
        callback?.(new AddressRefusedError(host, host), undefined as unknown as Duplex);
        return undefined;
      }
      return super.createConnection({ ...connectOptions, lookup }, callback);
    }
  }
  return new PublicOnlyAgent({ ...agentOptions, lookup } as AgentOptions);
}
