import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';

/** The answer's CSP nonce, made when the first inline element asks for it (`ctx.nonce`). */
export interface LazyNonce {
  readonly value: string;
  readonly used: boolean;
}

/** Nonces come from a pool of random bytes filled a few hundred at a time: one system call per pool, not per answer. */
const POOL_NONCES = 256;
const NONCE_BYTES = 16;
let pool = Buffer.alloc(0);
let offset = 0;

function newNonce(): string {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_NONCES * NONCE_BYTES);
    offset = 0;
  }
  const nonce = pool.toString('base64', offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}

function lazyNonce(): LazyNonce {
  let value: string | undefined;
  return {
    get value() {
      return (value ??= newNonce());
    },
    get used() {
      return value !== undefined;
    },
  };
}

export interface SecurityHeadersOptions {
  /** Whether to send a Content-Security-Policy (Vite's dev server injects scripts of its own: not in development). */
  contentSecurityPolicy: boolean;
  /** The origins a request's pages load files from besides this one: the site's CDN, and its logo's host. */
  origins: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => { cdn: string; logo: string };
}

/** Every answer: HTTPS only, no content sniffing, readable by this origin only unless it says otherwise. */
const COMMON_HEADERS: readonly (readonly [string, string])[] = [
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
];

/**
 * A JSON answer is data, never a document: it may load nothing and be framed by nobody (the API answers of the OWASP
 * REST Security Cheat Sheet). The document headers below mean nothing to it, and it is most of the traffic.
 */
const JSON_HEADERS: readonly (readonly [string, string])[] = [
  ...COMMON_HEADERS,
  ['X-Frame-Options', 'DENY'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
];

/** Pages and every other file a browser may open as a document. */
const DOCUMENT_HEADERS: readonly (readonly [string, string])[] = [
  ...COMMON_HEADERS,
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(self)'],
];

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * The Content-Security-Policy of a page served with files from `cdn` and a logo from `logo` (origins, or ''): this
 * server's files and the CDN's; inline scripts and styles only with the answer's nonce (docs/decisions/052), and
 * none when the answer used no nonce; never framed.
 */
export function contentSecurityPolicy(cdn: string, logo: string, nonce: string | null): string {
  const sources = (...list: string[]) => list.filter(Boolean).join(' ');
  const inline = nonce === null ? '' : `'nonce-${nonce}'`;
  return [
    "default-src 'self'",
    `script-src ${sources("'self'", inline, cdn)}`,
    `style-src ${sources("'self'", inline, cdn)}`,
    `img-src ${sources("'self'", 'data:', 'blob:', cdn, logo)}`,
    "connect-src 'self'",
    `font-src ${sources("'self'", 'data:', cdn)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Strict security headers on every answer, whatever an inner layer returned (docs/decisions/088): a page's policy names
 * the site's CDN and the answer's nonce, made only when the page asked for one (an inline element); a JSON answer gets
 * the short set an API needs. The headers are written onto the answer in place, so @hono/node-server's lightweight
 * Response is not rebuilt.
 */
export function securityHeaders(options: SecurityHeadersOptions): MiddlewareHandler<AppEnv> {
  // The policies of the few origin pairs a server meets (one per site with a CDN), without and with a nonce slot.
  const policies = new Map<string, { none: string; parts: string[] }>();
  const policyFor = (cdn: string, logo: string, nonce: LazyNonce) => {
    const key = `${cdn} ${logo}`;
    let policy = policies.get(key);
    if (!policy) {
      policy = { none: contentSecurityPolicy(cdn, logo, null), parts: contentSecurityPolicy(cdn, logo, '\u0000').split('\u0000') };
      if (policies.size < 1000) policies.set(key, policy);
    }
    return nonce.used ? policy.parts.join(nonce.value) : policy.none;
  };
  return async (c, next) => {
    const nonce = lazyNonce();
    c.set('nonce', nonce);
    await next();
    const headers = c.res.headers;
    // Public files (built assets, public/, public photos) say who may embed them; everything else is for this origin only.
    if (!headers.has('Cross-Origin-Resource-Policy')) headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    if (JSON_TYPE.test(headers.get('Content-Type') ?? '')) {
      for (const [name, value] of JSON_HEADERS) headers.set(name, value);
      return;
    }
    for (const [name, value] of DOCUMENT_HEADERS) headers.set(name, value);
    if (options.contentSecurityPolicy) {
      const { cdn, logo } = options.origins(c);
      headers.set('Content-Security-Policy', policyFor(cdn, logo, nonce));
    }
  };
}
