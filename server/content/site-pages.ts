import { languageIso, type Language } from '#common/languages.ts';
import type { Actor } from '../actor.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { Site } from '../settings/settings.service.ts';
import { siteOf } from '../accounts/contact-rules.ts';
import { isPageSlug, regionalVariant, type createContentService, type PageVars } from './content.service.ts';
import type { SiteTexts } from '../settings/site-cache.ts';

/** Spec section 9: the terms date is 2023-12-01 12:00 UTC, or the company's added date if later. */
export const TERMS_BASE_DATE = new Date('2023-12-01T12:00:00Z');

/** The company details a site's pages name. */
export interface CompanyDetails {
  name: string; address: string; city: string; country: string; kvk: string; vat_numbers: string[]; support_phone: string; added: string;
}

/**
 * The values a page's placeholders take. The terms' date is their version date: the date the site's own terms in
 * this language were last saved, else the spec's (2023-12-01 12:00 UTC, or the company's added date if later).
 */
export function pageVars(site: Site, company: CompanyDetails, language: Language, termsVersion: Date | null): PageVars {
  const added = new Date(company.added);
  const termsDate = termsVersion ?? (added > TERMS_BASE_DATE ? added : TERMS_BASE_DATE);
  return {
    site_name: site.name,
    company_name: company.name,
    company_address: company.address,
    company_city: company.city,
    company_country: company.country,
    company_kvk: company.kvk,
    vat_numbers: company.vat_numbers.join(', '),
    support_email: site.supportEmail,
    support_phone: company.support_phone,
    refund_days: site.refundDays,
    terms_date: new Intl.DateTimeFormat(languageIso(language), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(termsDate) + ' UTC',
  };
}

/** The static pages (terms, privacy, cookies …) of the actor's site, with its own and its company's details filled in. */
export function createSitePages(deps: {
  pages: Pick<ReturnType<typeof createContentService>, 'page' | 'render'>;
  site: (siteId: number) => Promise<Site>;
  /** The site's own page texts (decision 074), from the site cache. */
  texts: (siteId: number) => Promise<Pick<SiteTexts, 'pages'>>;
  company: (site: Site) => Promise<CompanyDetails>;
}) {
  return {
    /**
     * A static page of the actor's site in `language`; English-speaking visitors from the US (`requestCountry`, the
     * CDN's header or GeoIP) get the US privacy notice (content/en-US). An unknown page is not found.
     */
    async sitePage(actor: Actor, input: { slug: string; language: Language; requestCountry: string | null }): Promise<{ title: string; html: string }> {
      if (!isPageSlug(input.slug)) throw notFound();
      const siteId = siteOf(actor);
      if (siteId === null) throw new AppError(403, 'forbidden');
      const site = await deps.site(siteId);
      const company = await deps.company(site);
      const { pages } = await deps.texts(siteId);
      const key = `${input.language}/${input.slug}`;
      // The site's own text in this language wins over the file, except where a region has a variant of its own (the
      // US privacy notice): that one is required by the region's law and stays as shipped.
      const own = Object.hasOwn(pages, key) && !regionalVariant(input.language, input.requestCountry, input.slug) ? pages[key] : null;
      const ownTerms = Object.hasOwn(pages, `${input.language}/terms`) ? pages[`${input.language}/terms`] : null;
      const vars = pageVars(site, company, input.language, ownTerms?.versionDate ?? null);
      return own ? deps.pages.render(own.markdown, vars) : deps.pages.page(input.language, input.slug, vars, input.requestCountry);
    },
  };
}
