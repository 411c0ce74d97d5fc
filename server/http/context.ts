import type { ApiUser } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import type { Gender } from '#common/constants.ts';
import type { SignupLander } from '#common/landers.ts';
import type { Translator } from '../i18n/i18n.ts';
import type { UseCases } from '../use-cases.ts';
import type { Actor, StaffActor } from '../actor.ts';
import type { Site } from '../settings/settings.service.ts';
import type { Env } from '../env.ts';
import type { LazyNonce } from './security-headers.ts';

/** What the HTTP layer knows about a request; React Router loaders receive it as their context. */
export interface RequestContext {
  /** The use cases; an entry point shapes their answers and never reaches the database itself. */
  services: UseCases;
  /** Who makes this request: a member (signed in) or a visitor of the site. */
  actor: Actor;
  /**
   * The staff member making this request, from the console session's cookie or a staff API token
   * (`Authorization: Bearer amora_st_…`), looked up on first use; null for everyone else. Staff pages and endpoints
   * act with this, never with `actor`.
   */
  staff(): Promise<StaffActor | null>;
  translator: Translator;
  env: Env;
  /**
   * The site of the request's Host. For a signed-in member it is always their own site: a session is one only on the
   * site it was made on, for a member of that site (decision 051), so prices, free messages, packages and limits read
   * from it are the member's site's.
   */
  site: Site;
  lang: Language;
  userId: number | null;
  /** The version of the signed-in member's chat list, read with the session (0 for visitors): chat.list serves its copy while it holds. */
  chatListVersion: number;
  /** The signed-in member, loaded once per request. */
  user(): Promise<ApiUser | null>;
  /** The gender the signed-in member's "looking for" answer seeks, if it names one (read with user()). */
  soughtGender(): Promise<Gender | undefined>;
  nonce: string;
  /** The resolved site's canonical origin (settings' origin()): every link starts here, never with the Host header. */
  baseUrl: string;
  /** Whether the request really came over https (TLS here, or X-Forwarded-Proto from a trusted proxy): cookies get Secure. */
  secure: boolean;
  /**
   * The client as per-address rate limits count it (client-address.ts `limitKey`): an IPv4 address (also for an
   * IPv4-mapped IPv6 one), or an IPv6 client's network (`2001:db8:1:2::/64`, RATE_LIMIT_IPV6_PREFIX bits). Every
   * limit per address keys on this, never on `clientAddress`.
   */
  clientIp: string;
  /** The client's full address (behind TRUST_PROXY trusted proxies), for what needs the address itself: GeoIP, logs. */
  clientAddress: string;
  geoipCountry: string | null;
  query: Record<string, string>;
  /** First-touch tracking parameters (network, ref, sub1–sub3) of this visitor. */
  tracking?: { network?: string | null; ref?: string | null; sub1?: string | null; sub2?: string | null; sub3?: string | null };
  /** No tracking cookie came with this request: what `tracking` holds after the handler becomes the visitor's first touch. */
  trackingFirstTouch?: boolean;
  /** The first lander this visitor opened (its cookie, a known name), booked on their sign-up; null when none. */
  lander?: SignupLander | null;
  /** Set by a lander's page (or a short path to one): becomes the visitor's first lander when they have none yet. */
  landerOpened?: SignupLander;
  /**
   * The database did not answer when this page request's session was read: the visitor is unknown, and the page
   * answers 503 without running its loaders (server/pages.ts). API requests answer 503 at once instead.
   */
  unavailable?: boolean;
  /** On a lander's page: the browser's user agent and the landers its cookie says it was counted on; `counted` once this view counted. */
  landerVisit?: { userAgent: string | undefined; seen: readonly string[]; counted?: string };
}

export type AppEnv = {
  Variables: {
    requestId: string;
    /** The answer's CSP nonce, made on first use (security-headers.ts). */
    nonce: LazyNonce;
    site: Site;
    lang: Language;
    userId: number | null;
    sessionToken: string | undefined;
    ctx: RequestContext;
    /** The staff member of a staff endpoint, once its auth step has passed. */
    staff: StaffActor;
  };
};

/**
 * Where the request says a visitor is (the CDN's header or GeoIP), for the use cases that price or search for a
 * visitor; null for a member, whose profile says where they are (and whose requests need no GeoIP look-up).
 */
export function visitorCountry(ctx: Pick<RequestContext, 'actor' | 'geoipCountry'>): string | null {
  return ctx.actor.kind === 'visitor' ? ctx.geoipCountry : null;
}
