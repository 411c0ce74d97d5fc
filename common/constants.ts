/** Business constants of spec section 9. */
export const AUTH_COOKIE = 'auth.session';
export const AUTH_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;
/** A session unused this long ends, within its 30-day lifetime (AUTH_COOKIE_MAX_AGE). */
export const SESSION_IDLE_DAYS = 7;
export const MIN_AGE = 18;
export const MAX_AGE = 99;
/** A member counts as online this long after their last activity (a request, an open live socket, a page left). */
export const ONLINE_MINUTES = 5;
/** users.last_active_at moves at most this often per member: activity within a minute is one write. */
export const ACTIVE_STEP_MS = 60_000;
export const UNREAD_BADGE_CAP = 99;
export const CREDITS_BADGE_THRESHOLD = 10;
export const POLL_INTERVAL_MS = 60_000;
export const POLL_INTERVAL_PUSH_MS = 300_000;
export const POLL_START_DELAY_MS = 5_000;
/** Spec section 7: every API request is tried up to 5 times (the first try and 4 retries), in api() only. */
export const API_ATTEMPTS = 5;
export const LOADING_BAR = { throttle: 200, duration: 5000, hideDelay: 500 } as const;
export const SEARCH_PAGE_SIZE = 24;
/** numResults is exact up to this many; beyond it the search says "1000+". */
export const SEARCH_COUNT_CAP = 1000;
/** Fewer matches than this bring similar results (relaxed filters) under the results. */
export const SIMILAR_RESULTS_THRESHOLD = 12;
export const FREE_PHOTO_LIMIT = 3;
/** Spec section 9: a free member writes in at most this many conversations. */
export const FREE_CONVERSATIONS = 2;
export const PREMIUM_PHOTO_LIMIT = 25;

export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];

/** Countries the product knows, with the currency members there pay in. */
export const COUNTRY_CURRENCY: Record<string, string> = {
  NL: 'EUR', BE: 'EUR', DE: 'EUR', AT: 'EUR', FR: 'EUR', IT: 'EUR', ES: 'EUR', IE: 'EUR', FI: 'EUR',
  GB: 'GBP', US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', CH: 'CHF', PL: 'PLN', DK: 'DKK', NO: 'NOK', SE: 'SEK',
};
export const COUNTRIES = Object.keys(COUNTRY_CURRENCY);

/**
 * The time zone a member's day follows (daily limits such as the swipe game's). Countries with
 * several zones take the one most of their people live in.
 */
export const COUNTRY_TIME_ZONE: Record<string, string> = {
  NL: 'Europe/Amsterdam', BE: 'Europe/Brussels', DE: 'Europe/Berlin', AT: 'Europe/Vienna', FR: 'Europe/Paris',
  IT: 'Europe/Rome', ES: 'Europe/Madrid', IE: 'Europe/Dublin', FI: 'Europe/Helsinki', GB: 'Europe/London',
  US: 'America/New_York', CA: 'America/Toronto', AU: 'Australia/Sydney', NZ: 'Pacific/Auckland', CH: 'Europe/Zurich',
  PL: 'Europe/Warsaw', DK: 'Europe/Copenhagen', NO: 'Europe/Oslo', SE: 'Europe/Stockholm',
};

/** Spec section 9: likes per day in the swipe game. */
export const SWIPE_LIKES_PER_DAY = 4;
/** Likes a visitor gives on the swipe lander before signing up: kept in the browser, given on sign-up (at most this many). */
export const MAX_PENDING_LIKES = 20;

export function currencyForCountry(country: string | null | undefined): string {
  return (country && COUNTRY_CURRENCY[country]) || 'EUR';
}

/** Mollie's method ids that the site may offer; which ones a member sees, the site's provider says (per country and amount). */
export const PAYMENT_METHODS = [
  'ideal', 'creditcard', 'paypal', 'bancontact', 'banktransfer', 'sofort', 'eps', 'blik', 'applepay',
  'directdebit', 'giropay', 'przelewy24', 'kbc', 'belfius', 'trustly', 'twint',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ORDER_STATUSES = ['open', 'pending', 'completed', 'failed', 'cancelled'] as const;

export const INTERESTS = [
  'relationship', 'kissing', 'massages', 'travelling', 'music', 'cooking', 'wine', 'dancing', 'sports',
  'movies', 'reading', 'nature', 'photography', 'art', 'fashion', 'fitness', 'gaming', 'roleplay',
] as const;

/** Spec section 9: a deleted account can be reactivated by e-mail link for 14 days. */
export const REACTIVATION_WINDOW_DAYS = 14;
/** The first landing's tracking parameters, kept for the sign-up (first touch wins). */
export const TRACKING_COOKIE = 'amora.tracking';
export const TRACKING_COOKIE_MAX_AGE = 90 * 24 * 60 * 60;
/** The first lander a visitor opened (a lander name, first touch, as long as the tracking cookie): booked on their sign-up. */
export const LANDER_COOKIE = 'amora.lander';
/** A device that logged in to an account before: it skips the per-e-mail log-in throttle (signed, HttpOnly). */
export const KNOWN_DEVICE_COOKIE = 'amora.device';
export const KNOWN_DEVICE_COOKIE_MAX_AGE = 400 * 24 * 60 * 60;
/** Alert dismissals and the accepted entry warning, stored in localStorage as unix timestamps (spec section 3). */
export const DISMISS_KEYS = {
  entryWarning: 'hide-site-entry-warning',
  enrich: 'hide-enrich-alert',
  push: 'hide-push-notification-alert',
  disabledNotifications: 'hide-disabled-notifications-alert',
  timeBonusModal: 'hide-time-bonus-modal',
} as const;
/**
 * The dismissed keys again, as a cookie (names joined by dots), so the server renders the alert area as it will
 * stay: an alert that appeared only after hydration pushed the page down (a layout shift).
 */
export const DISMISS_COOKIE = 'amora.dismissed';
export const DISMISS_COOKIE_MAX_AGE = 400 * 24 * 60 * 60;

/** The Set-Cookie (or document.cookie) value that records these dismissed keys. */
export function dismissalsCookie(keys: Iterable<string>): string {
  return `${DISMISS_COOKIE}=${[...keys].sort().join('.')}; Path=/; Max-Age=${DISMISS_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** The dismissed keys named in a Cookie header (unknown names are ignored). */
export function dismissedInCookie(header: string | null): string[] {
  const known: string[] = Object.values(DISMISS_KEYS);
  for (const part of (header ?? '').split(';')) {
    const [name, value = ''] = part.trim().split('=');
    if (name === DISMISS_COOKIE) return value.split('.').filter((key) => known.includes(key));
  }
  return [];
}

/** The site's niche setting 1–7, in order (spec section 3: niche). */
export const NICHES = ['default', 'she', 'bdsm', 'bbw', 'gilf', 'milf', 'gay'] as const;
export type Niche = (typeof NICHES)[number];

/** What the payer can choose on the test provider's hosted checkout. */
export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'pending'] as const;
/** A member's own spend cap: credits per local day or calendar month. */
export const SPEND_CAP_PERIODS = ['day', 'month'] as const;
export type SpendCapPeriod = (typeof SPEND_CAP_PERIODS)[number];
export const SPEND_CAP_MAX = 1_000_000;
/** Raising or removing a spend cap takes effect only after this cooling-off period; lowering it applies at once. */
export const SPEND_CAP_COOLING_OFF_HOURS = 24;

/**
 * SEPA direct debit with an SMS code (docs/decisions/034). A member may order at most this much by direct
 * debit in any 30 days (open, pending and completed orders count): a debit can be reversed by the bank for
 * 8 weeks, so the exposure per member stays small. Direct debit is in euros only.
 */
export const DIRECT_DEBIT_MAX_CENTS_PER_30_DAYS = 15_000;
/** SMS codes sent to one mobile number per hour, and requested by one member per hour. */
export const SMS_CODES_PER_NUMBER_PER_HOUR = 3;
export const SMS_CODES_PER_MEMBER_PER_HOUR = 5;
/** How long an SMS code is valid, and how many wrong tries it survives. */
export const SMS_CODE_TTL_MINUTES = 10;
export const SMS_CODE_MAX_ATTEMPTS = 5;

/** The query parameter that turns on page-bounce logging for a visit (spec section 2: `lb`). */
export const PAGE_BOUNCE_PARAM = 'lb';
