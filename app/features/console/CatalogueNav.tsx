import { NavLink } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';

/** The three parts of the catalogue in the console: credit packages, discount codes, gifts. */
export function CatalogueNav({ search = '' }: { search?: string }) {
  const { t } = useTranslation();
  const link = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;
  return (
    <nav className="nav nav-tabs mb-3" aria-label={t('console.nav.catalogue')}>
      <NavLink to={`/console/packages${search}`} end className={link} data-testid="console-catalogue-packages">{t('console.packages.title')}</NavLink>
      <NavLink to={`/console/discounts${search}`} end className={link} data-testid="console-catalogue-discounts">{t('console.discounts.title')}</NavLink>
      <NavLink to={`/console/gifts${search}`} end className={link} data-testid="console-catalogue-gifts">{t('console.gifts.title')}</NavLink>
    </nav>
  );
}
