import { z } from 'zod';
import { COUNTRIES, INTERESTS, NICHES } from './constants.ts';
import { idSchema, textSchema } from './input.ts';
import { ATTRIBUTE_KEYS } from './profile.ts';
import { HEX_COLOUR } from './site-theme.ts';

/**
 * The settings of a site (spec section 3) and of a company as the operator console edits them: one schema per form,
 * checked in the browser before sending and by the console's use case before anything is stored (decision 067).
 * Every message is an i18n key, shown beside its field.
 */

/**
 * Names that never reach the public: localhost and its subdomains, the reserved `.test` top-level
 * domain, and loopback addresses. A deployment made only of these is a developer's machine.
 */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.test')
    || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1' || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/** A Mollie API key: test_ or live_ followed by at least 30 letters and digits. */
export const MOLLIE_API_KEY = /^(test|live)_[A-Za-z0-9]{30,}$/;

export const SIGNUP_MODES = ['all', 'with_trafficsource', 'none'] as const;
export const LOGGED_OUT_SEARCH_MODES = ['all', 'none'] as const;
export const PHOTO_MODERATION_MODES = ['after', 'before'] as const;
export const SEARCH_FIELDS = ['gender', 'country', 'age'] as const;
export const PROFILE_FIELDS: [string, ...string[]] = ['interests', ...ATTRIBUTE_KEYS];
export const PAYMENT_PROVIDERS = ['test', 'mollie'] as const;

/** #rgb or #rrggbb in any case, stored as lower-case #rrggbb (the database checks that form). */
const colour = z.string({ error: 'errors.colour_invalid' }).trim().toLowerCase()
  .transform((v) => (/^#[0-9a-f]{3}$/.test(v) ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : v))
  .pipe(z.string().regex(HEX_COLOUR, 'errors.colour_invalid'));

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** https anywhere; plain http only for a name that never leaves this machine (development, tests). */
const allowedProtocol = (url: URL) => url.protocol === 'https:' || (url.protocol === 'http:' && isLocalHostname(url.hostname));

/**
 * cdn_prefix: '' (this server) or an origin, optionally with a path, that serves /assets/* and
 * /photos/* as this server does (an origin-pull CDN). No query, fragment or credentials: the
 * prefix is put before paths and into the Content-Security-Policy.
 */
const cdnPrefix = z.string({ error: 'errors.url_invalid' }).trim().max(200, 'errors.url_invalid').transform((v) => v.replace(/\/+$/, '')).refine((v) => {
  if (v === '') return true;
  const url = parseUrl(v);
  return Boolean(url && allowedProtocol(url) && !url.search && !url.hash && !url.username && !url.password && !/[\s"'`;,]/.test(v));
}, 'errors.url_invalid');

/** The navbar logo: '' (the name as a text mark), a path on this server, or an https URL (on the CDN, say). */
const logoUrl = z.string({ error: 'errors.url_invalid' }).trim().max(300, 'errors.url_invalid').refine((v) => {
  if (v === '') return true;
  if (/[\s"'`<>\\]/.test(v)) return false;
  if (v.startsWith('/')) return !v.startsWith('//');
  const url = parseUrl(v);
  return Boolean(url && allowedProtocol(url) && !url.username && !url.password);
}, 'errors.url_invalid');

/** A whole number from a form field ('' is missing, not 0) or from JSON. */
export const whole = (min: number, max: number) => z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
  z.coerce.number({ error: 'errors.number_out_of_range' }).int('errors.number_out_of_range').min(min, 'errors.number_out_of_range').max(max, 'errors.number_out_of_range'),
);

/** The white-label settings that decide a site's look, also checked by the command line's `sites:set`. */
export const siteLookFields = {
  niche: whole(1, NICHES.length),
  themePrimary: colour,
  themeSecondary: colour,
  themeDark: colour,
  logoUrl,
  cdnPrefix,
};

/** A check box: ticked sends 'on' (a form) or true (JSON); unticked sends nothing. */
export const flag = z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean());
/** Ticked boxes of one question: each a value of `values`, none an empty list. */
const ticked = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === undefined || v === '' ? [] : v), z.array(z.enum(values, 'errors.invalid_choice')).transform((list) => [...new Set(list)]));
const text = (max: number, multiline = false) => textSchema({ max, tooLong: 'errors.field_too_long', multiline });
const required = (max: number) => textSchema({ min: 1, max, tooShort: 'errors.field_required', tooLong: 'errors.field_too_long' });

/** A host name as the site answers on it: lower case, no port, no leading www. */
const domain = z.string({ error: 'errors.domain_invalid' }).trim().toLowerCase().transform((v) => v.replace(/^www\./, ''))
  .pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, 'errors.domain_invalid'));

/**
 * minimum_message_costs as the form writes them: one country a line, `CH 6 CHF` (its code, the least credits a
 * message costs there, the currency its prices show in). JSON may send the object itself.
 */
const minimumMessageCosts = z.union([z.string(), z.record(z.string(), z.object({ costs: z.number(), currency: z.string() }))], { error: 'errors.minimum_costs_invalid' })
  .transform((value, ctx) => {
    const lines = typeof value === 'string'
      ? value.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((l) => l.split(/\s+/))
      : Object.entries(value).map(([country, c]) => [country, String(c.costs), c.currency]);
    const out: Record<string, { costs: number; currency: string }> = {};
    for (const parts of lines) {
      const [country = '', costs = '', currency = ''] = parts.map((p) => p.toUpperCase());
      if (parts.length !== 3 || !COUNTRIES.includes(country) || !/^\d{1,4}$/.test(costs) || Number(costs) < 1 || !/^[A-Z]{3}$/.test(currency) || out[country]) {
        ctx.addIssue({ code: 'custom', message: 'errors.minimum_costs_invalid' });
        return z.NEVER;
      }
      out[country] = { costs: Number(costs), currency };
    }
    return out;
  });

/** The minimum message costs as the form's text shows them. */
export const minimumCostsText = (costs: Record<string, { costs: number; currency: string }>) =>
  Object.entries(costs).map(([country, c]) => `${country} ${c.costs} ${c.currency}`).join('\n');

/**
 * Every setting of a site the console edits, grouped as the page shows them. The names are the site's own (the
 * sites table's columns), so that the parsed value is the change itself.
 */
export const SITE_SECTIONS = {
  identity: ['name', 'domain', 'domainLanguage', 'companyId', 'niche', 'countries', 'geoipPreselect', 'geoipDefaultCountry', 'indexTitle', 'description', 'mailName'],
  look: ['themePrimary', 'themeSecondary', 'themeDark', 'logoUrl', 'cdnPrefix'],
  access: ['signups', 'loggedOutSearch', 'loggedOutSearchTrafficsource', 'enableSiteEntryPopup', 'memberResell'],
  support: ['supportEmail', 'supportPhone'],
  credits: ['messageCredits', 'signupCredits', 'freeMessages', 'photoCredits', 'giftCredits', 'messageLength', 'refundDays', 'minimumMessageCosts'],
  profiles: ['visibleProfileFields', 'visibleProfileNotes', 'searchFields', 'interests', 'photoModeration', 'visitorNewMemberDays'],
  fictional: ['fictionalSingular', 'fictionalPlural', 'fictionalWarning', 'fictionalIcon'],
} as const;

export const siteSettingsSchema = z.object({
  name: required(60),
  domain,
  domainLanguage: z.preprocess((v) => v ?? '', z.string({ error: 'errors.invalid_input' }).trim()
    .refine((v) => v === '' || /^[a-z]{2}_[A-Z]{2}$/.test(v), 'errors.invalid_input').transform((v) => v || null)),
  companyId: idSchema(),
  countries: ticked(COUNTRIES as [string, ...string[]]).refine((list) => list.length > 0, 'errors.country_required'),
  geoipPreselect: flag,
  /** One of the site's countries (checked below, with the countries), or empty: the first of them. */
  geoipDefaultCountry: z.preprocess((v) => v ?? '', z.string({ error: 'errors.invalid_choice' }).trim().toUpperCase()
    .refine((v) => v === '' || COUNTRIES.includes(v), 'errors.invalid_choice').transform((v) => v || null)),
  indexTitle: text(120),
  description: text(300),
  mailName: text(60),
  ...siteLookFields,
  signups: z.enum(SIGNUP_MODES, 'errors.invalid_choice'),
  loggedOutSearch: z.enum(LOGGED_OUT_SEARCH_MODES, 'errors.invalid_choice'),
  loggedOutSearchTrafficsource: z.enum(LOGGED_OUT_SEARCH_MODES, 'errors.invalid_choice'),
  enableSiteEntryPopup: flag,
  memberResell: flag,
  supportEmail: z.string({ error: 'errors.email_invalid' }).trim().max(254, 'errors.email_invalid')
    .refine((v) => v === '' || z.email().safeParse(v).success, 'errors.email_invalid'),
  supportPhone: z.string({ error: 'errors.phone_invalid' }).trim().regex(/^(\+?[0-9][0-9 ()-]{5,24})?$/, 'errors.phone_invalid'),
  messageCredits: whole(0, 1000),
  signupCredits: whole(0, 10_000),
  freeMessages: whole(0, 100),
  photoCredits: whole(0, 10_000),
  giftCredits: whole(0, 10_000),
  messageLength: whole(1, 10_000),
  refundDays: whole(0, 365),
  minimumMessageCosts,
  visibleProfileFields: ticked(PROFILE_FIELDS),
  visibleProfileNotes: flag,
  searchFields: ticked(SEARCH_FIELDS),
  interests: ticked(INTERESTS),
  photoModeration: z.enum(PHOTO_MODERATION_MODES, 'errors.invalid_choice'),
  visitorNewMemberDays: whole(0, 365),
  fictionalSingular: text(60),
  fictionalPlural: text(60),
  fictionalWarning: text(500, true),
  fictionalIcon: text(40),
}).superRefine((site, ctx) => {
  if (site.geoipDefaultCountry && !site.countries.includes(site.geoipDefaultCountry)) {
    ctx.addIssue({ code: 'custom', path: ['geoipDefaultCountry'], message: 'errors.geoip_country_not_on_site' });
  }
});

export type SiteSettings = z.output<typeof siteSettingsSchema>;

/**
 * The country a visitor's choices start from (geoip_selected_country, spec section 3): a country they chose of the
 * site's, else their GeoIP country when the site lets it preselect and it is one of the site's, else the site's
 * assumed country (its geoipDefaultCountry, or its first country).
 */
export function selectedCountry(
  site: { countries: readonly string[]; geoipPreselect: boolean; geoipDefaultCountry: string | null },
  geoipCountry: string | null, chosen?: string | null,
): string | null {
  if (chosen && site.countries.includes(chosen)) return chosen;
  if (site.geoipPreselect && geoipCountry && site.countries.includes(geoipCountry)) return geoipCountry;
  return site.geoipDefaultCountry && site.countries.includes(site.geoipDefaultCountry) ? site.geoipDefaultCountry : site.countries[0] ?? null;
}

/** A list typed as words separated by commas or lines (trade names, VAT numbers). */
const words = (max: number) => z.preprocess(
  (v) => (Array.isArray(v) ? v.join('\n') : v),
  text(2000, true).transform((v) => [...new Set(v.split(/[\n,]/).map((w) => w.trim()).filter(Boolean))]),
).pipe(z.array(z.string().max(max, 'errors.field_too_long')).max(20, 'errors.field_too_long'));

/** A company: who runs one or more sites, as its invoices, imprint and pages name it. */
export const companySchema = z.object({
  name: required(120),
  address: required(200),
  city: required(100),
  country: z.enum(COUNTRIES as [string, ...string[]], 'errors.country_required'),
  /** The chamber of commerce (KvK) or other registration number. */
  kvk: required(40),
  vatNumbers: words(30),
  tradenames: words(80),
  supportPhone: z.string({ error: 'errors.phone_invalid' }).trim().regex(/^(\+?[0-9][0-9 ()-]{5,24})?$/, 'errors.phone_invalid'),
  /** The retention offer: the percentage off a member leaving may take once (decision 048); 0 makes none. */
  deleteDiscount: whole(0, 90),
});

export type CompanyValues = z.output<typeof companySchema>;

/**
 * A company's payment account: the provider, and for Mollie its API key. An empty key keeps the one already stored
 * (the form never shows it again); the use case refuses an empty key when there is none to keep.
 */
export const paymentAccountSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS, 'errors.invalid_choice'),
  apiKey: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ error: 'errors.payment_key_invalid' }).trim()
    .refine((v) => v === '' || MOLLIE_API_KEY.test(v), 'errors.payment_key_invalid')),
});
