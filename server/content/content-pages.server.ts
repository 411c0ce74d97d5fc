import { data } from 'react-router';
import { languageIso } from '#common/languages.ts';
import type { RequestContext } from '../http/context.ts';
import { PAGE_SLUGS, type PageSlug } from './content.service.ts';

/** Spec section 9: the terms date is 2023-12-01 12:00 UTC, or the company's added date if later. */
export const TERMS_BASE_DATE = new Date('2023-12-01T12:00:00Z');

/** A static page in the visitor's language; English-speaking US visitors get the US privacy notice (content/en-US). */

export async function staticPage(ctx: RequestContext, pathname: string) {
  const slug = pathname.replace(/^\/(pages\/)?/, '').replace(/\/$/, '') as PageSlug;
  if (!PAGE_SLUGS.includes(slug)) throw data(null, { status: 404 });
  const company = await ctx.services.settings.companyInfo(ctx.site);
  const added = new Date(company.added);
  const termsDate = added > TERMS_BASE_DATE ? added : TERMS_BASE_DATE;
  return ctx.services.content.page(ctx.lang, slug, {
    site_name: ctx.site.name,
    company_name: company.name,
    company_address: company.address,
    company_city: company.city,
    company_country: company.country,
    company_kvk: company.kvk,
    vat_numbers: company.vat_numbers.join(', '),
    support_email: ctx.site.supportEmail,
    support_phone: company.support_phone,
    refund_days: ctx.site.refundDays,
    terms_date: new Intl.DateTimeFormat(languageIso(ctx.lang), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(termsDate) + ' UTC',
  }, ctx.geoipCountry);
}
