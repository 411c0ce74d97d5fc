import { languageIso, type Language } from '#common/languages.ts';
import type { Actor } from '../actor.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { Site } from '../settings/settings.service.ts';
import { siteOf } from '../accounts/contact-rules.ts';
import { isPageSlug, type createContentService } from './content.service.ts';

/** Spec section 9: the terms date is 2023-12-01 12:00 UTC, or the company's added date if later. */
export const TERMS_BASE_DATE = new Date('2023-12-01T12:00:00Z');

/** The company details a site's pages name. */
interface CompanyDetails {
  name: string; address: string; city: string; country: string; kvk: string; vat_numbers: string[]; support_phone: string; added: string;
}

/** The static pages (terms, privacy, cookies …) of the actor's site, with its own and its company's details filled in. */
export function createSitePages(deps: {
  pages: Pick<ReturnType<typeof createContentService>, 'page'>;
  site: (siteId: number) => Promise<Site>;
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
      const added = new Date(company.added);
      const termsDate = added > TERMS_BASE_DATE ? added : TERMS_BASE_DATE;
      return deps.pages.page(input.language, input.slug, {
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
        terms_date: new Intl.DateTimeFormat(languageIso(input.language), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(termsDate) + ' UTC',
      }, input.requestCountry);
    },
  };
}
