import { Link, useLoaderData } from 'react-router';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-gifts';
import { requestContext } from '../context.ts';
import { giftName } from '../features/chat/gift-name.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { CatalogueNav } from '../features/console/CatalogueNav.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.gifts.title', noindex: true });
}

/** The gift catalogue every site's members pick from (finance or admin of some site). */
export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return { gifts: await orForbidden(ctx.services.console.giftList(staff)), editable: staff.siteIds === null };
}

export default function ConsoleGifts() {
  const { t, i18n } = useTranslation();
  const { gifts, editable } = useLoaderData<typeof loader>();
  return (
    <>
      <CatalogueNav />
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">{t('console.gifts.title')}</h1>
        {editable && <Link to="/console/gifts/new" className="btn btn-primary" data-testid="gift-new">{t('console.gifts.new')}</Link>}
      </div>
      <table className="table table-sm align-middle" data-testid="console-gifts">
        <thead>
          <tr>
            <th scope="col">{t('console.gifts.gift')}</th>
            <th scope="col">{t('console.gifts.credits')}</th>
            <th scope="col">{t('console.package.sort')}</th>
            <th scope="col">{t('console.packages.active')}</th>
            <th scope="col">{t('console.gifts.sent')}</th>
            <th scope="col"><span className="visually-hidden">{t('console.package.edit')}</span></th>
          </tr>
        </thead>
        <tbody>
          {gifts.map((g) => (
            <tr key={g.id} data-gift={g.id}>
              <th scope="row" className="fw-normal">
                <img src={g.image} alt="" width={40} height={40} className="me-2" />
                {giftName({ slug: g.slug, names: g.builtIn ? undefined : g.names }, i18n.language, t)}
              </th>
              <td>{g.credits ?? t('console.gifts.site_price')}</td>
              <td>{g.sort}</td>
              <td>{g.active ? '✓' : t('console.gifts.retired')}</td>
              <td>{g.sent}</td>
              <td>{editable && <Link to={`/console/gifts/${g.id}`} data-testid="gift-edit">{t('console.package.edit')}</Link>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
