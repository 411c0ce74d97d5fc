import { asc, eq } from 'drizzle-orm';
import { INTERESTS } from '#common/constants.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import type { Db } from '../db/client.ts';
import { companies, regions, sites } from '../db/schema.ts';

export type Site = typeof sites.$inferSelect;

/** Lower-cased host without port and without a leading www. */
export function normalizeHost(host: string | undefined | null): string {
  return (host ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/^www\./, '');
}

/** The first two letters of domain_language, when they name a supported language. */
export function domainLanguage(site: Site): Language | null {
  const code = site.domainLanguage?.slice(0, 2).toLowerCase();
  return isLanguage(code) ? code : null;
}

export function createSettingsService(deps: { db: Db }) {
  const { db } = deps;

  return {
    /** The site for a request host; unknown hosts get the default site. */
    async siteForHost(host: string | undefined | null): Promise<Site> {
      const domain = normalizeHost(host);
      const [site] = await db.select().from(sites).where(eq(sites.domain, domain));
      if (site) return site;
      const [fallback] = await db.select().from(sites).where(eq(sites.isDefault, true)).limit(1);
      if (!fallback) throw new Error('No site is configured: run `npm run seed` or add a site with is_default = true');
      return fallback;
    },

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
        interests: [...INTERESTS],
      };
    },

    async companyInfo(site: Site) {
      const [c] = await db.select().from(companies).where(eq(companies.id, site.companyId));
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

    async regions(country?: string) {
      const rows = await db
        .select({ country: regions.country, code: regions.code, name: regions.name })
        .from(regions)
        .where(country ? eq(regions.country, country) : undefined)
        .orderBy(asc(regions.country), asc(regions.name));
      return rows;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
