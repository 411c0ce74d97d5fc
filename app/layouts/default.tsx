import { Outlet } from 'react-router';
import { Footer } from '../components/Footer.tsx';
import { TopNav } from '../components/TopNav.tsx';
import { TabBar } from '../components/TabBar.tsx';
import { EntryWarning } from '../components/EntryWarning.tsx';
import { useLoggedOutRedirect } from '../lib/logged-out.ts';
import { useUser } from '../lib/user.ts';
import { useRootData } from '../root.tsx';
import { usePageTitlePrefix } from '../lib/title.ts';
import { useMemberActivity } from '../lib/member-activity.ts';
import { Alerts } from '../features/alerts/Alerts.tsx';
import { SignupProvider } from '../features/signup/SignupModal.tsx';
import { LikeOverlayHost } from '../features/likes/LikeOverlay.tsx';
import { TimeBonus } from '../features/bonus/TimeBonus.tsx';

/** Top navigation, alert area, page, footer with disclaimer, the entry warning and the sign-up modal. */
export default function DefaultLayout() {
  const { settings, lang, repeatOrder } = useRootData();
  const user = useUser();
  useLoggedOutRedirect();
  usePageTitlePrefix(user);
  useMemberActivity(user);
  return (
    <SignupProvider signedIn={Boolean(user)}>
      <TopNav user={user} siteName={settings.name} lang={lang} repeatOrder={repeatOrder} />
      <TimeBonus user={user} />
      <Alerts user={user} />
      <main>
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
