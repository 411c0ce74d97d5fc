import { useEffect, useState, type MouseEvent } from 'react';
import { Crown } from 'lucide-react';
import { useTranslation } from '../lib/i18n.ts';
import { Link, NavLink, useLocation, useMatches } from 'react-router';
import type { ApiUser } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { signOut } from '../lib/api.ts';
import { capBadge, creditsBadgeVariant, creditsPath } from '../lib/badges.ts';
import { LanguageDropdown } from './LanguageDropdown.tsx';
import { NavMenu } from './NavMenu.tsx';
import { SiteLogo } from './SiteLogo.tsx';

const BACK_BUTTON_ROUTES = new Set(['members-id', 'likes-type', 'likes-m-id', 'credits', 'credits-id-paymentmethod']);

/** A back button only in the installed app (no browser chrome), on the spec's routes, when there is somewhere to go back to. */
function useInstalledBackButton(routeId: string | undefined): boolean {
  const [installed, setInstalled] = useState(false);
  useEffect(() => {
    setInstalled(window.matchMedia?.('(display-mode: standalone)').matches && window.history.length > 1);
  }, [routeId]);
  return installed && Boolean(routeId && BACK_BUTTON_ROUTES.has(routeId));
}

async function logout() {
  await signOut();
  window.location.assign('/');
}

export function TopNav({ user, siteName, lang, repeatOrder = false }: { user: ApiUser | null; siteName: string; lang: Language; repeatOrder?: boolean }) {
  const { t } = useTranslation();
  const matches = useMatches();
  const hideLanguage = matches.some((m) => m.id === 'complete-signup');
  const showBack = useInstalledBackButton(matches.at(-1)?.id);
  const creditsBadge = user ? creditsBadgeVariant(user.credits) : null;
  // The phone menu closes on every page change (the account menu's items would otherwise leave it open over the page).
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState(false);
  useEffect(() => setExpanded(false), [pathname]);
  // A link chosen in the phone menu folds it away, even when it leads to the page already open.
  const foldOnLink = (event: MouseEvent) => {
    if ((event.target as Element).closest('a')) setExpanded(false);
  };
  const link = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;
  return (
    // Bootstrap's navbar markup, without React Bootstrap's Navbar (its off-canvas and transition code would load on
    // every page, docs/decisions/024): the menu folds open and shut without an animation.
    <nav className="navbar navbar-expand-md bg-dark sticky-top" data-bs-theme="dark" data-testid="top-nav">
      <div className="container">
        {showBack && (
          <button type="button" className="btn btn-link text-white px-2" onClick={() => window.history.back()} aria-label={t('nav.back')} data-testid="back-button">‹</button>
        )}
        <Link to={user ? '/members' : '/'} className="navbar-brand" data-testid="logo" aria-label={siteName}><SiteLogo /></Link>
        {user && (
          // Outside the collapsing menu: the balance (and premium) stay in sight on every screen size.
          <div className="d-flex align-items-center gap-2 ms-auto me-2 me-md-0 order-md-last ms-md-3">
            {user.paid_user && (
              <Link to="/premium" className="badge text-bg-warning d-inline-flex align-items-center gap-1 text-decoration-none" title={t('nav.premium_member')} data-testid="premium-badge">
                <Crown aria-hidden="true" size={14} /><span className="d-none d-sm-inline">{t('nav.premium')}</span>
              </Link>
            )}
            <Link to={user.paid_user ? '/credits/repeat-order' : '/credits'} className="btn btn-sm btn-outline-light header-balance" data-testid="header-balance">
              {t('nav.balance', { count: user.credits })}
            </Link>
          </div>
        )}
        <button type="button" className="navbar-toggler" aria-controls="main-nav" aria-expanded={expanded} aria-label={t('nav.menu')} onClick={() => setExpanded((e) => !e)}>
          <span className="navbar-toggler-icon" />
        </button>
        <div id="main-nav" className={`navbar-collapse collapse${expanded ? ' show' : ''}`} onClick={foldOnLink}>
          {user && (
            <div className="navbar-nav me-auto">
              <NavLink to="/members" end className={link}>{t('nav.search')}</NavLink>
              <NavLink to="/chats" className={link} data-testid="nav-chats">
                {t('nav.chats')}
                {user.num_unread_messages > 0 && (
                  <span className="badge rounded-pill ms-1 badge-unread" data-testid="unread-badge">{capBadge(user.num_unread_messages)}</span>
                )}
              </NavLink>
              <NavLink to="/likes" className={link} data-testid="nav-likes">
                {t('nav.likes')}
                {user.num_new_likes > 0 && <span className="badge rounded-pill text-bg-secondary ms-1" data-testid="likes-badge">{capBadge(user.num_new_likes)}</span>}
              </NavLink>
              <NavLink to="/swipe-game" className={link} data-testid="nav-swipe">{t('nav.swipe')}</NavLink>
              <NavLink to="/match-finder" className={link} data-testid="nav-match-finder">{t('nav.match_finder')}</NavLink>
              {user.paid_user ? (
                <NavLink to={creditsPath(repeatOrder)} end className={link} data-testid="nav-credits">
                  {t('nav.credits')}
                  {creditsBadge && (
                    <span className={`badge rounded-pill ms-1 text-bg-${creditsBadge}`} data-testid="credits-badge">{user.credits}</span>
                  )}
                </NavLink>
              ) : (
                <NavLink to="/premium" className={(state) => `${link(state)} text-warning fw-semibold`} data-testid="nav-premium">
                  {t('nav.get_premium')}
                </NavLink>
              )}
            </div>
          )}
          <div className="navbar-nav ms-auto align-items-md-center">
            {!hideLanguage && <LanguageDropdown current={lang} />}
            {user ? (
              <NavMenu id="account-dropdown" title={user.profile.name} testId="account-dropdown">
                <Link className="dropdown-item" to="/profile" data-testid="nav-my-profile">{t('nav.my_profile')}</Link>
                <Link className="dropdown-item" to="/transactions" data-testid="nav-transactions">{t('nav.transactions')}</Link>
                <Link className="dropdown-item" to="/reports" data-testid="nav-reports">{t('nav.my_reports')}</Link>
                <Link className="dropdown-item" to="/notifications" data-testid="nav-settings">{t('nav.settings')}</Link>
                <hr className="dropdown-divider" />
                <button type="button" className="dropdown-item" onClick={() => void logout()} data-testid="logout">{t('nav.logout')}</button>
              </NavMenu>
            ) : (
              <Link to="/login" className="btn btn-primary btn-sm ms-md-2" data-testid="login-button">{t('nav.login')}</Link>
            )}
          </div>
        </div>
      </div>
    </nav>
  );
}
