import { useEffect, useState } from 'react';
import { Crown } from 'lucide-react';
import { Badge, Container, Nav, Navbar, NavDropdown } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useMatches } from 'react-router';
import type { ApiUser } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { api } from '../lib/api.ts';
import { capBadge, creditsBadgeVariant, creditsPath } from '../lib/badges.ts';
import { LanguageDropdown } from './LanguageDropdown.tsx';
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
  await api('/api/logout.php', { method: 'POST' }).catch(() => undefined);
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
  return (
    <Navbar bg="dark" variant="dark" expand="md" sticky="top" collapseOnSelect expanded={expanded} onToggle={setExpanded} data-testid="top-nav">
      <Container>
        {showBack && (
          <button type="button" className="btn btn-link text-white px-2" onClick={() => window.history.back()} aria-label={t('nav.back')} data-testid="back-button">‹</button>
        )}
        <Navbar.Brand as={Link} to={user ? '/members' : '/'} data-testid="logo" aria-label={siteName}><SiteLogo /></Navbar.Brand>
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
        <Navbar.Toggle aria-controls="main-nav" aria-label={t('nav.menu')} />
        <Navbar.Collapse id="main-nav">
          {user && (
            <Nav className="me-auto">
              <Nav.Link as={NavLink} to="/members" end eventKey="members">{t('nav.search')}</Nav.Link>
              <Nav.Link as={NavLink} to="/chats" eventKey="chats" data-testid="nav-chats">
                {t('nav.chats')}
                {user.num_unread_messages > 0 && (
                  <Badge pill className="ms-1 badge-unread" data-testid="unread-badge">{capBadge(user.num_unread_messages)}</Badge>
                )}
              </Nav.Link>
              <Nav.Link as={NavLink} to="/likes" eventKey="likes" data-testid="nav-likes">
                {t('nav.likes')}
                {user.num_new_likes > 0 && <Badge pill bg="secondary" className="ms-1" data-testid="likes-badge">{capBadge(user.num_new_likes)}</Badge>}
              </Nav.Link>
              <Nav.Link as={NavLink} to="/swipe-game" eventKey="swipe-game" data-testid="nav-swipe">{t('nav.swipe')}</Nav.Link>
              <Nav.Link as={NavLink} to="/match-finder" eventKey="match-finder" data-testid="nav-match-finder">{t('nav.match_finder')}</Nav.Link>
              {user.paid_user ? (
                <Nav.Link as={NavLink} to={creditsPath(repeatOrder)} end eventKey="credits" data-testid="nav-credits">
                  {t('nav.credits')}
                  {creditsBadge && (
                    <Badge pill bg={creditsBadge} text={creditsBadge === 'warning' ? 'dark' : undefined} className="ms-1" data-testid="credits-badge">
                      {user.credits}
                    </Badge>
                  )}
                </Nav.Link>
              ) : (
                <Nav.Link as={NavLink} to="/premium" eventKey="premium" className="text-warning fw-semibold" data-testid="nav-premium">
                  {t('nav.get_premium')}
                </Nav.Link>
              )}
            </Nav>
          )}
          <Nav className="ms-auto align-items-md-center">
            {!hideLanguage && <LanguageDropdown current={lang} />}
            {user ? (
              <NavDropdown title={user.profile.name} id="account-dropdown" align="end" data-testid="account-dropdown">
                <NavDropdown.Item as={Link} to="/profile" data-testid="nav-my-profile">{t('nav.my_profile')}</NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/transactions" data-testid="nav-transactions">{t('nav.transactions')}</NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/notifications" data-testid="nav-settings">{t('nav.settings')}</NavDropdown.Item>
                <NavDropdown.Divider />
                <NavDropdown.Item onClick={() => void logout()} data-testid="logout">{t('nav.logout')}</NavDropdown.Item>
              </NavDropdown>
            ) : (
              <Link to="/login" className="btn btn-primary btn-sm ms-md-2" data-testid="login-button">{t('nav.login')}</Link>
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
