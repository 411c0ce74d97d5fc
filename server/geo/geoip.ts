import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

/** Addresses that never belong to a country: loopback, private, link-local, CGNAT, unique-local, documentation. */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32]] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is looked up as 1.2.3.4. */
function normalizeIp(ip: string): string {
  const trimmed = ip.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

export function isPublicIp(ip: string): boolean {
  const address = normalizeIp(ip);
  const family = isIP(address);
  if (!family) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type CountryLookup = (ip: string) => string | null;

/**
 * Offline IP → country (ISO 3166-1 alpha-2) from the whois/ASN country database shipped in
 * @ip-location-db/geo-whois-asn-country-mmdb. The file (≈8 MB) is read once, on the first lookup.
 */
export function createGeoIp(file?: string): CountryLookup {
  let reader: Reader<Response> | undefined;
  return (ip) => {
    const address = normalizeIp(ip);
    if (!isPublicIp(address)) return null;
    if (!reader) {
      const path = file ?? createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
      reader = new Reader(readFileSync(path));
    }
    // This database's records are flat: { country_code: 'NL' }.
    const code = (reader.get(address) as { country_code?: string } | null)?.country_code;
    return code && /^[A-Z]{2}$/.test(code) ? code : null;
  };
}
