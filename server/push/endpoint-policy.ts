import { ECDH } from 'node:crypto';
import { isIP } from 'node:net';
import { AppError } from '../infra/errors.ts';

/**
 * The push services browsers subscribe with; a subscription must point at one of them, since every
 * like or message makes the server send a request to its endpoint.
 * - Chrome, Edge (Chromium), Opera, Brave, Samsung Internet: Firebase Cloud Messaging.
 * - Firefox: Mozilla's autopush.
 * - Safari 16+ (macOS, iOS): Apple's web push service.
 * - Edge on Windows (older builds): Windows Push Notification Services, many regional hosts.
 */
export const PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

/**
 * Decides which hosts and ports endpoints may use (the URL is already an `https:` URL on a host name,
 * without credentials). Tests inject their own policy for a local push service.
 */
export type EndpointPolicy = (endpoint: URL) => boolean;

/** An endpoint on the default port of a known browser push service (an exact host, or a subdomain of a `*.` entry). */
export const knownPushServices: EndpointPolicy = (endpoint) => {
  const host = endpoint.hostname.toLowerCase();
  return endpoint.port === '' && PUSH_SERVICE_HOSTS.some((entry) => (entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry));
};

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Unpadded base64url of exactly `bytes` bytes (a trailing `=` padding is tolerated and dropped). */
function base64urlKey(value: unknown, bytes: number): string | null {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return null;
  const bare = value.replace(/=+$/, '');
  const decoded = Buffer.from(bare, 'base64url');
  return decoded.length === bytes && decoded.toString('base64url') === bare ? bare : null;
}

/** A P-256 public key: 65 bytes, uncompressed, on the curve. */
function validP256(key: string): boolean {
  try {
    ECDH.convertKey(Buffer.from(key, 'base64url'), 'prime256v1');
    return Buffer.from(key, 'base64url')[0] === 0x04;
  } catch {
    return false;
  }
}

/**
 * The URL of an acceptable endpoint: `https:`, no credentials, a host name (never an IP address), and
 * a host and port the policy allows. Null when it is not such a URL at all; 'unknown' when it is one
 * but not at an allowed push service.
 */
export function checkEndpoint(value: unknown, policy: EndpointPolicy): URL | null | 'unknown' {
  if (typeof value !== 'string' || value.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host || isIP(host) || host.endsWith('.')) return null;
  return policy(url) ? url : 'unknown';
}

/**
 * A browser push subscription as PushSubscription.toJSON() gives it, at an allowed push service, with
 * well-formed keys (p256dh: a 65-byte P-256 point, auth: 16 bytes). Anything else is refused with 400.
 */
export function parseSubscription(value: unknown, policy: EndpointPolicy = knownPushServices): PushSubscriptionJson {
  const v = value as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  if (!v || typeof v !== 'object' || !v.keys || typeof v.keys !== 'object') throw new AppError(400, 'push_subscription_invalid');
  const p256dh = base64urlKey(v.keys.p256dh, 65);
  const auth = base64urlKey(v.keys.auth, 16);
  const endpoint = checkEndpoint(v.endpoint, policy);
  if (!p256dh || !auth || !validP256(p256dh) || endpoint === null) throw new AppError(400, 'push_subscription_invalid');
  if (endpoint === 'unknown') throw new AppError(400, 'push_service_unknown');
  return { endpoint: endpoint.href, keys: { p256dh, auth } };
}
