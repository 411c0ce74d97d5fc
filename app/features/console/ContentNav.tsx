import { NavLink } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';

/** The three parts of a site's texts in the console: short paths and landers, page texts, mail texts. */
export function ContentNav({ search }: { search: string }) {
  const { t } = useTranslation();
  const link = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;
  return (
    <nav className="nav nav-tabs mb-3" aria-label={t('console.content.title')}>
      <NavLink to={`/console/content${search}`} end className={link}>{t('console.content.tokens.title')}</NavLink>
      <NavLink to={`/console/content/pages${search}`} className={link}>{t('console.content.pages.title')}</NavLink>
      <NavLink to={`/console/content/mails${search}`} className={link}>{t('console.content.mails.title')}</NavLink>
    </nav>
  );
}
