import { asc, eq } from 'drizzle-orm';
import { INTERESTS } from '#common/constants.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { regions, sites } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import type { SharedCache } from '../infra/shared-cache.ts';
import { createSiteCache, type Site, type SiteCacheOptions, type SiteTexts } from './site-cache.ts';
import { isPublicOrigin, siteOrigin, type OriginConfig } from './origin.ts';
import { checkSiteLook } from './site-look.ts';
import { siteStylesheet } from './site-stylesheet.ts';

/** How long an instance keeps the regions before it reads them again. */
const REGIONS_TTL_MS = 5 * 60_000;

export type { Site } from './site-cache.ts';

/** What an operator may change on a site: every setting, not its id. */
export type SitePatch = Partial<Omit<typeof sites.$inferInsert, 'id' | 'createdAt'>>;

/** Lower-cased host without port and without a leading www. */
export function normalizeHost(host: string | undefined | null): string {
  return (host ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/^www\./, '');
}

/** The first two letters of domain_language, when they name a supported language. */
export function domainLanguage(site: Site): Language | null {
  const code = site.domainLanguage?.slice(0, 2).toLowerCase();
  return isLanguage(code) ? code : null;
}

export function createSettingsService(deps: {
  db: Db;
  clock: Clock;
  /** PUBLIC_URL and PORT: where each site's links start. */
  origins: OriginConfig;
  /** Where the site cache's version stamp lives: Redis or the database, shared by every instance. */
  shared: SharedCache;
  siteCache?: SiteCacheOptions;
  onError?: (error: unknown) => void;
}) {
  const { db, origins } = deps;
  const cache = createSiteCache({ db, clock: deps.clock, shared: deps.shared, options: deps.siteCache, onError: deps.onError });
  // Regions are reference data (seeded, changed by hand if ever), asked for by every search page: one
  // query per instance every REGIONS_TTL_MS instead of one per page.
  let regionsCache: { rows: Promise<{ country: string; code: string; name: string }[]>; until: number } | undefined;

  return {
    /** The site's canonical origin: the start of every link built for it. */
    origin(site: Pick<Site, 'domain'>): string {
      return siteOrigin(origins, site.domain);
    },

    /**
     * The sites whose members the members and visitors of `siteId` meet (decision 051: its own, or every reselling site
     * of its company when it resells), or null when that is every site; from the site cache.
     */
    meetingSites(siteId: number): Promise<number[] | null> {
      return cache.meetingSites(siteId);
    },

    /**
     * The site of an actor (a member's own, a visitor's), from the site cache: the use cases read their prices,
     * limits and modes here rather than take them from the caller.
     */
    async site(siteId: number): Promise<Site> {
      const resolved = await cache.byId(siteId);
      if (!resolved) throw new AppError(404, 'not_found');
      return resolved.site;
    },

    /** A site's own short paths and page texts (decision 074), from the site cache. */
    async siteTexts(siteId: number): Promise<SiteTexts> {
      const resolved = await cache.byId(siteId);
      if (!resolved) throw new AppError(404, 'not_found');
      return resolved.texts;
    },

    /** Every configured site's domain (from the site cache: sites added through updateSite count at once). */
    async domains(): Promise<string[]> {
      return cache.domains();
    },

    /** Whether PUBLIC_URL or any configured site is reachable from outside this machine. */
    async isPublicDeployment(): Promise<boolean> {
      return isPublicOrigin(origins, await cache.domains());
    },

    /**
     * The site for a request host (with its company held beside it); unknown hosts get the default
     * site, whose origin, not the host, builds links. Served from the site cache: no query once warm.
     */
    async siteForHost(host: string | undefined | null): Promise<Site> {
      return (await cache.forHost(normalizeHost(host))).site;
    },

    /**
     * Changes a site's settings and tells every instance: this one at once, the others within the
     * site cache's check interval (one second by default). The operator console calls this.
     */
    async updateSite(siteId: number, patch: SitePatch): Promise<Site> {
      const values = Object.fromEntries(Object.entries(patch).filter(([k, v]) => v !== undefined && k !== 'id' && k !== 'createdAt')) as SitePatch;
      Object.assign(values, checkSiteLook(values));
      if (values.domain !== undefined) values.domain = normalizeHost(values.domain);
      if (values.domain === '') throw new AppError(400, 'invalid_input', {}, { domain: 'errors.invalid_input' });
      let updated: Site | undefined;
      try {
        [updated] = Object.keys(values).length
          ? await db.update(sites).set(values).where(eq(sites.id, siteId)).returning()
          : await db.select().from(sites).where(eq(sites.id, siteId));
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'invalid_input', {}, { domain: 'errors.invalid_input' });
        throw error;
      }
      if (!updated) throw new AppError(404, 'not_found');
      await cache.invalidate();
      return updated;
    },

    /**
     * A further site (another domain, brand or niche) of the default site's company, with the default
     * site's settings for everything the patch leaves out; every instance serves it within a second.
     */
    async addSite(patch: SitePatch & { domain: string }): Promise<Site> {
      const [base] = await db.select().from(sites).where(eq(sites.isDefault, true)).limit(1);
      if (!base) throw new AppError(404, 'not_found');
      const { id: _id, createdAt: _created, isDefault: _default, ...inherited } = base;
      const domain = normalizeHost(patch.domain);
      if (!domain) throw new AppError(400, 'invalid_input', {}, { domain: 'errors.invalid_input' });
      let created: Site;
      try {
        const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as SitePatch;
        [created] = await db.insert(sites).values({ ...inherited, name: domain, ...given, ...checkSiteLook(given), domain, isDefault: false }).returning();
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'invalid_input', {}, { domain: 'errors.invalid_input' });
        throw error;
      }
      await cache.invalidate();
      return created;
    },

    /** Drops the cached sites everywhere, after a change made outside updateSite (a company, a new site). */
    invalidateSites: () => cache.invalidate(),

    /** How many sites this instance holds (for tests and metrics). */
    cachedSites: () => cache.size(),

    /** The settings object of spec sections 3 and 7, as the browser may see it. */
    publicSettings(site: Site, extra: { geoipCountry: string | null; geoipSelectedCountry: string | null }) {
      return {
        name: site.name,
        domain: site.domain,
        domain_language: site.domainLanguage,
        index_title: site.indexTitle,
        description: site.description,
        cdn_prefix: site.cdnPrefix,
        niche: site.niche,
        theme: { primary: site.themePrimary, secondary: site.themeSecondary, dark: site.themeDark },
        logo_url: site.logoUrl,
        countries: site.countries,
        signups: site.signups,
        logged_out_search: site.loggedOutSearch,
        logged_out_search_trafficsource: site.loggedOutSearchTrafficsource,
        geoip_country: extra.geoipCountry,
        geoip_selected_country: extra.geoipSelectedCountry,
        support_email: site.supportEmail,
        support_phone: site.supportPhone.replace(/[\s-]/g, ''),
        mail_name: site.mailName,
        message_credits: site.messageCredits,
        signup_credits: site.signupCredits,
        photo_credits: site.photoCredits,
        gift_credits: site.giftCredits,
        minimum_message_costs: site.minimumMessageCosts,
        photo_moderation: site.photoModeration,
        message_length: site.messageLength,
        refund_days: site.refundDays,
        member_resell: site.memberResell,
        enable_site_entry_popup: site.enableSiteEntryPopup,
        fictional_icon: site.fictionalIcon,
        fictional_warning: site.fictionalWarning,
        fictional_singular: site.fictionalSingular,
        fictional_plural: site.fictionalPlural,
        visible_profile_fields: site.visibleProfileFields,
        visible_profile_notes: site.visibleProfileNotes,
        search_fields: site.searchFields,
        company_id: site.companyId,
        interests: site.interests.length ? INTERESTS.filter((i) => site.interests.includes(i)) : [...INTERESTS],
      };
    },

    /** The site's colours as a stylesheet, with the version its URL carries (docs/decisions/052). */
    themeStylesheet(site: Pick<Site, 'themePrimary' | 'themeSecondary' | 'themeDark'>) {
      return siteStylesheet(site);
    },

    /** The company behind a site, from the site cache. */
    async companyInfo(site: Site) {
      const resolved = await cache.byId(site.id);
      if (!resolved) throw new AppError(404, 'not_found');
      const c = resolved.company;
      return {
        name: c.name,
        address: c.address,
        kvk: c.kvk,
        city: c.city,
        country: c.country,
        tradenames: c.tradenames,
        vat_numbers: c.vatNumbers,
        support_phone: c.supportPhone.replace(/[\s-]/g, ''),
        delete_discount: c.deleteDiscount,
        added: c.added.toISOString(),
      };
    },

    /** The regions of every country, or of one, ordered by country and name. */
    async regions(country?: string) {
      const now = deps.clock().getTime();
      if (!regionsCache || regionsCache.until <= now) {
        const rows = Promise.resolve(db.select({ country: regions.country, code: regions.code, name: regions.name }).from(regions)
          .orderBy(asc(regions.country), asc(regions.name)));
        regionsCache = { rows, until: now + REGIONS_TTL_MS };
        rows.catch(() => { regionsCache = undefined; });
      }
      const rows = await regionsCache.rows;
      return country ? rows.filter((r) => r.country === country) : rows;
    },
  };
}
