import { Link, useLoaderData } from 'react-router';
import { formatMoney } from '#common/i18n-format.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-packages';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { CatalogueNav } from '../features/console/CatalogueNav.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.packages.title', noindex: true });
}

/** The credit packages with their prices, as a site sells them (finance or admin of the site: `?site=`, else this one). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const site = Number(new URL(request.url).searchParams.get('site') ?? ctx.site.id);
  const removed = new URL(request.url).searchParams.get('removed');
  return {
    packages: await orForbidden(ctx.services.console.packageList(staff, Number.isSafeInteger(site) ? site : 0)),
    removed: removed === 'deleted' || removed === 'deactivated' ? removed : null,
    // Packages are shared by every site: only finance of every site may change them (decision 071).
    editable: staff.siteIds === null,
  };
}

export default function ConsolePackages() {
  const { t, i18n } = useTranslation();
  const { packages, removed, editable } = useLoaderData<typeof loader>();
  const lang = i18n.language;
  return (
    <>
      <CatalogueNav />
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">{t('console.packages.title')}</h1>
        {editable && <Link to="/console/packages/new" className="btn btn-primary" data-testid="package-new">{t('console.package.new')}</Link>}
      </div>
      {removed && <Alert variant="success" data-testid="package-removed">{t(`console.package.${removed}`)}</Alert>}
      {packages.length === 0 ? <p>{t('console.packages.none')}</p> : (
        <table className="table table-sm align-middle" data-testid="console-packages">
          <thead>
            <tr>
              <th scope="col">{t('console.packages.credits')}</th>
              <th scope="col">{t('console.packages.messages')}</th>
              <th scope="col">{t('console.packages.prices')}</th>
              <th scope="col">{t('console.packages.popular')}</th>
              <th scope="col">{t('console.packages.active')}</th>
              <th scope="col">{t('console.packages.orders')}</th>
              <th scope="col"><span className="visually-hidden">{t('console.package.edit')}</span></th>
            </tr>
          </thead>
          <tbody>
            {packages.map((p) => (
              <tr key={p.id} data-package={p.id}>
                <th scope="row" className="fw-normal">{p.credits}</th>
                <td>{p.aboutMessages ?? ''}</td>
                <td>{Object.entries(p.prices).map(([currency, cents]) => formatMoney(cents, currency, lang)).join(' · ')}</td>
                <td>{p.popular ? '✓' : ''}</td>
                <td>{p.active ? '✓' : t('console.packages.inactive')}</td>
                <td>{p.orders}</td>
                <td>{editable && <Link to={`/console/packages/${p.id}`} data-testid="package-edit">{t('console.package.edit')}</Link>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
