import { Link, useLoaderData } from 'react-router';
import { formatMoney } from '#common/i18n-format.ts';
import { languageIso } from '#common/languages.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-discounts';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { CatalogueNav } from '../features/console/CatalogueNav.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.discounts.title', noindex: true });
}

/** The site's discount codes and those of every site, with how often each was used (finance or admin of the site). */
export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return { codes: await orForbidden(ctx.services.console.discountList(staff, ctx.site.id)) };
}

/** A percentage in basis points as the language writes it (12,5 %). */
const percentText = (bp: number, lang: string) => new Intl.NumberFormat(languageIso(lang), { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10_000);

export default function ConsoleDiscounts() {
  const { t, i18n } = useTranslation();
  const { codes } = useLoaderData<typeof loader>();
  const lang = i18n.language;
  return (
    <>
      <CatalogueNav />
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">{t('console.discounts.title')}</h1>
        <Link to="/console/discounts/new" className="btn btn-primary" data-testid="discount-new">{t('console.discounts.new')}</Link>
      </div>
      {codes.length === 0 ? <p>{t('console.discounts.none')}</p> : (
        <div className="table-responsive">
          <table className="table table-sm align-middle" data-testid="console-discounts">
            <thead>
              <tr>
                <th scope="col">{t('console.discounts.code')}</th>
                <th scope="col">{t('console.discounts.percentage')}</th>
                <th scope="col">{t('console.discounts.minimums')}</th>
                <th scope="col">{t('console.discounts.country')}</th>
                <th scope="col">{t('console.discounts.window')}</th>
                <th scope="col">{t('console.discounts.once')}</th>
                <th scope="col">{t('console.discounts.active')}</th>
                <th scope="col">{t('console.discounts.uses')}</th>
                <th scope="col"><span className="visually-hidden">{t('console.package.edit')}</span></th>
              </tr>
            </thead>
            <tbody>
              {codes.map((c) => (
                <tr key={c.id} data-discount={c.code}>
                  <th scope="row" className="fw-normal">
                    <code>{c.code}</code>
                    {c.kind === 'welcome' && <span className="badge text-bg-info ms-2">{t('console.discounts.kinds.welcome')}</span>}
                    {c.everySite && <span className="badge text-bg-secondary ms-2">{t('console.discounts.every_site')}</span>}
                  </th>
                  <td>{percentText(c.percentBp, lang)}</td>
                  <td>{Object.entries(c.minimums).map(([currency, cents]) => formatMoney(cents, currency, lang)).join(' · ')}</td>
                  <td>{c.country ? t(`countries.${c.country}`) : t('console.discounts.any_country')}</td>
                  <td>{c.startsOn || c.endsOn ? `${c.startsOn ?? '…'} – ${c.endsOn ?? '…'}` : ''}</td>
                  <td>{c.oncePerMember ? '✓' : ''}</td>
                  <td>{c.active ? '✓' : t('console.packages.inactive')}</td>
                  <td data-testid="discount-uses">{c.uses}</td>
                  <td>{c.editable && <Link to={`/console/discounts/${c.id}`} data-testid="discount-edit">{t('console.package.edit')}</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
