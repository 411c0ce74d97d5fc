import { Link, useLoaderData } from 'react-router';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-sites';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { useRouteData } from '../features/console/route-data.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.sites.title', noindex: true });
}

/** The sites the admin reaches; admins of every site also add sites and keep the companies behind them. */
export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return { sites: await orForbidden(ctx.services.console.siteList(staff)) };
}

export default function ConsoleSites() {
  const { t } = useTranslation();
  const { sites } = useLoaderData<typeof loader>();
  const { isAdmin } = useRouteData();
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 me-auto mb-0">{t('console.sites.title')}</h1>
        {isAdmin && <Link to="/console/companies" className="btn btn-outline-secondary btn-sm" data-testid="console-companies-link">{t('console.companies.title')}</Link>}
        {isAdmin && <Link to="/console/sites/new" className="btn btn-primary btn-sm" data-testid="console-site-new">{t('console.sites.new')}</Link>}
      </div>
      {sites.length === 0 ? <p>{t('console.sites.none')}</p> : (
        <table className="table table-sm align-middle" data-testid="console-sites">
          <thead>
            <tr>
              <th scope="col">{t('console.site.fields.name')}</th>
              <th scope="col">{t('console.site.fields.domain')}</th>
              <th scope="col">{t('console.site.fields.companyId')}</th>
            </tr>
          </thead>
          <tbody>
            {sites.map((site) => (
              <tr key={site.id} data-site={site.domain}>
                <th scope="row" className="fw-normal">
                  <Link to={`/console/sites/${site.id}`}>{site.name}</Link>
                  {site.isDefault && <span className="badge text-bg-light ms-2">{t('console.sites.default')}</span>}
                </th>
                <td>{site.domain}</td>
                <td>{site.company}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
