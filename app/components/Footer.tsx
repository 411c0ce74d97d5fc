import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';

const LINKS = [
  ['/pages/terms', 'footer.terms'],
  ['/pages/privacy', 'footer.privacy'],
  ['/pages/cookies', 'footer.cookies'],
  ['/pages/ban', 'footer.ban'],
  ['/pricing', 'footer.pricing'],
  ['/complaints', 'footer.complaints'],
  ['/pages/return-policy', 'footer.return_policy'],
  ['/pages/faq', 'footer.faq'],
  ['/pages/service', 'footer.support'],
] as const;

/** US visitors also get the links US state privacy laws ask for, to the sections of the US privacy notice. */
const US_LINKS = [
  ['/pages/privacy#your-privacy-choices', 'footer.privacy_choices'],
  ['/pages/privacy#notice-at-collection', 'footer.notice_at_collection'],
] as const;

/** The footer's links for a visitor from `country` (the request's geo country). */
export function footerLinks(country: string | null | undefined): readonly (readonly [string, string])[] {
  return country?.toUpperCase() === 'US' ? [...LINKS, ...US_LINKS] : LINKS;
}

export function Footer({ siteName, country }: { siteName: string; country: string | null }) {
  const { t } = useTranslation();
  return (
    <footer className="bg-dark text-white-50 py-4 mt-5" data-testid="footer">
      <div className="container">
        <nav className="d-flex flex-wrap gap-3 mb-3" aria-label={t('footer.label')}>
          {footerLinks(country).map(([to, key]) => (
            <Link key={to} to={to} className="link-light link-opacity-75">{t(key)}</Link>
          ))}
        </nav>
        <p className="small mb-1">{t('footer.disclaimer')}</p>
        <p className="small mb-0">© {new Date().getFullYear()} {siteName}</p>
      </div>
    </footer>
  );
}
