import { Link } from 'react-router';
import type { Route } from './+types/console-index';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { useRouteData } from '../features/console/route-data.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.overview.title', noindex: true });
}

/** The console's start: who is signed in and where to go. The queues and member support come with their screens. */
export default function ConsoleIndex() {
  const { t } = useTranslation();
  const layout = useRouteData();
  return (
    <>
      <h1 className="h3">{t('console.overview.title')}</h1>
      <p>{t('console.overview.welcome', { name: layout.name })}</p>
      <ul>
        {layout.siteAdmin && <li><Link to="/console/sites">{t('console.nav.sites')}</Link>: {t('console.overview.sites')}</li>}
        {layout.siteAdmin && <li><Link to="/console/transparency">{t('console.nav.transparency')}</Link>: {t('console.overview.transparency')}</li>}
        {layout.isAdmin && <li><Link to="/console/audit">{t('console.nav.audit')}</Link>: {t('console.overview.audit')}</li>}
        <li><Link to="/console/account">{t('console.nav.account')}</Link>: {t('console.overview.account')}</li>
      </ul>
    </>
  );
}
