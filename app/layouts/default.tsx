import { Outlet } from 'react-router';
import { Footer } from '../components/Footer.tsx';
import { TopNav } from '../components/TopNav.tsx';
import { TabBar } from '../components/TabBar.tsx';
import { EntryWarning } from '../components/EntryWarning.tsx';
import { SkipLink } from '../components/SkipLink.tsx';
import { useLoggedOutRedirect } from '../lib/logged-out.ts';
import { useUser } from '../lib/user.ts';
import { useRootData } from '../lib/root-data.ts';
import { usePageTitlePrefix } from '../lib/title.ts';
import { useMemberActivity } from '../lib/member-activity.ts';
import { Alerts } from '../features/alerts/Alerts.tsx';
import { SignupProvider } from '../features/signup/SignupModal.tsx';
import { LikeOverlayHost } from '../features/likes/LikeOverlayHost.tsx';
import { TimeBonus } from '../features/bonus/TimeBonus.tsx';
// With the layout, not its components: those are in the shell every page loads (vite.config.ts), the landers too.
import '../components/tab-bar.scss';
import '../features/bonus/time-bonus.scss';
import { dismissedInCookie } from '#common/constants.ts';
import { timeBonusSecondsLeft } from '#common/time-bonus.ts';
import type { LayoutData } from '../lib/dismissals.ts';
import { requestContext } from '../context.ts';
import type { Route } from './+types/default';

/**
 * What the first render needs to show the alert area and the welcome bonus banner as they will stay: the
 * dismissals cookie and a new member's running time bonus. Read once per visit of the layout; the browser keeps
 * both up to date afterwards (localStorage, the bonus query).
 */
export async function loader({ context, request }: Route.LoaderArgs): Promise<LayoutData> {
  const ctx = context.get(requestContext);
  const user = await ctx.user();
  const renderedAt = Date.now();
  // Only in a new member's first hours does the bonus run: the others are not asked (no queries).
  const running = user && !user.paid_user && timeBonusSecondsLeft(user.signup_date, renderedAt) > 0;
  const welcomeBonus = running ? await ctx.services.discounts.welcomeBonus(ctx.actor).catch(() => null) : null;
  return { dismissed: dismissedInCookie(request.headers.get('cookie')), welcomeBonus, renderedAt };
}

export function shouldRevalidate() {
  return false;
}

/** Top navigation, alert area, page, footer with disclaimer, the entry warning and the sign-up modal. */
export default function DefaultLayout() {
  const { settings, lang, repeatOrder } = useRootData();
  const user = useUser();
  useLoggedOutRedirect();
  usePageTitlePrefix(user);
  useMemberActivity(user);
  return (
    <SignupProvider signedIn={Boolean(user)}>
      <SkipLink />
      <TopNav user={user} siteName={settings.name} lang={lang} repeatOrder={repeatOrder} />
      <TimeBonus user={user} />
      <Alerts user={user} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer siteName={settings.name} country={settings.geoip_country} />
      {user && (
        <>
          {/* Room below the footer so the fixed tab bar (phones only) covers nothing. */}
          <div className="tab-bar-spacer d-md-none" aria-hidden="true" />
          <TabBar user={user} repeatOrder={repeatOrder} />
        </>
      )}
      <EntryWarning enabled={settings.enable_site_entry_popup} signedIn={Boolean(user)} country={settings.geoip_country} countries={settings.countries} />
      <LikeOverlayHost signedIn={Boolean(user)} />
    </SignupProvider>
  );
}
