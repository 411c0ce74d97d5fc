import { useState } from 'react';
import { Form, NavLink, Outlet, useLoaderData, useLocation } from 'react-router';
import { requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';

/** Every console page needs a staff session (else the console's sign-in); the bar shows who is signed in. */
export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const account = await ctx.services.console.account(staff);
  const has = (role: string) => account.roles.includes('admin') || account.roles.some((r) => r === role);
  // The members queue's count in the navigation, for those who work it.
  const flags = has('moderator') ? Object.values((await ctx.services.console.flags(staff)).counts).reduce((a, b) => a + b, 0) : null;
  // And the moderation queues' items together (each queue's own count is on its tab).
  const queues = has('moderator') ? Object.values(await ctx.services.console.queueCounts(staff)).reduce((a, b) => a + b, 0) : null;
  return { name: account.name, roles: account.roles, isAdmin: account.roles.includes('admin') && account.siteIds === null, siteAdmin: account.roles.includes('admin'), support: has('support'), finance: has('finance'), flags, queues };
}

export type ConsoleLayoutData = Awaited<ReturnType<typeof loader>>;

/** The console's own frame: its navigation bar (not the member pages'), the staff member's name and roles, the page. */
export default function ConsoleLayout() {
  const { t } = useTranslation();
  const { name, roles, isAdmin, siteAdmin, support, finance, flags, queues } = useLoaderData<typeof loader>();
  const [expanded, setExpanded] = useState(false);
  const { pathname } = useLocation();
  const link = ({ isActive }: { isActive: boolean }) => `nav-link${isActive ? ' active' : ''}`;
  return (
    <>
      <a href="#console-main" className="visually-hidden-focusable">{t('console.nav.skip')}</a>
      <nav className="navbar navbar-expand-md bg-dark" data-bs-theme="dark" aria-label={t('console.nav.label')} data-testid="console-nav">
        <div className="container-fluid">
          <NavLink to="/console" end className="navbar-brand">{t('console.nav.brand')}</NavLink>
          <button
            type="button" className="navbar-toggler" aria-controls="console-nav-items" aria-expanded={expanded}
            aria-label={t('console.nav.menu')} onClick={() => setExpanded((e) => !e)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div id="console-nav-items" className={`navbar-collapse collapse${expanded ? ' show' : ''}`}>
            <div className="navbar-nav flex-wrap me-auto">
              <NavLink to="/console" end className={link}>{t('console.nav.overview')}</NavLink>
              {flags !== null && (
                <NavLink to="/console/flags" className={link} data-testid="console-nav-flags">
                  {t('console.nav.flags')} <span className="badge text-bg-light">{flags}<span className="visually-hidden"> {t('console.nav.open_items')}</span></span>
                </NavLink>
              )}
              {queues !== null && (
                <NavLink to="/console/queues/reports" className={() => link({ isActive: pathname.startsWith('/console/queues') })} data-testid="console-nav-queues">
                  {t('console.nav.queues')} <span className="badge text-bg-light">{queues}<span className="visually-hidden"> {t('console.nav.open_items')}</span></span>
                </NavLink>
              )}
              {support && <NavLink to="/console/members" className={link} data-testid="console-nav-members">{t('console.nav.members')}</NavLink>}
              {support && <NavLink to="/console/fictional" className={link} data-testid="console-nav-fictional">{t('console.nav.fictional')}</NavLink>}
              {siteAdmin && <NavLink to="/console/sites" className={link} data-testid="console-nav-sites">{t('console.nav.sites')}</NavLink>}
              {finance && <NavLink to="/console/reports" className={link} data-testid="console-nav-reports">{t('console.nav.reports')}</NavLink>}
              {finance && (
                <NavLink to="/console/packages" className={() => link({ isActive: /^\/console\/(packages|discounts|gifts)(\/|$)/.test(pathname) })} data-testid="console-nav-catalogue">
                  {t('console.nav.catalogue')}
                </NavLink>
              )}
              {siteAdmin && <NavLink to="/console/content" className={link} data-testid="console-nav-content">{t('console.nav.content')}</NavLink>}
              {siteAdmin && <NavLink to="/console/transparency" className={link} data-testid="console-nav-transparency">{t('console.nav.transparency')}</NavLink>}
              {isAdmin && <NavLink to="/console/audit" className={link} data-testid="console-nav-audit">{t('console.nav.audit')}</NavLink>}
              <NavLink to="/console/account" className={link} data-testid="console-nav-account">{t('console.nav.account')}</NavLink>
            </div>
            <div className="navbar-nav align-items-md-center gap-2">
              <span className="navbar-text" data-testid="console-staff">
                {name} <span className="visually-hidden">{t('console.nav.roles')}</span>
                {roles.map((role) => <span key={role} className="badge text-bg-light ms-1">{t(`console.roles.${role}`)}</span>)}
              </span>
              <Form method="post" action="/console/sign-out">
                <button type="submit" className="btn btn-outline-light btn-sm" data-testid="console-sign-out">{t('console.nav.sign_out')}</button>
              </Form>
            </div>
          </div>
        </div>
      </nav>
      <main id="console-main" className="container-fluid py-4" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
