import { Outlet } from 'react-router';
import { TopNav } from '../components/TopNav.tsx';
import { EntryWarning } from '../components/EntryWarning.tsx';
import { useUser } from '../lib/user.ts';
import { useRootData } from '../root.tsx';
import { usePageTitlePrefix } from '../lib/title.ts';
import { useLoggedOutRedirect } from './default.tsx';
import { useMemberActivity } from '../lib/member-activity.ts';

/** Bare: navigation and the conversation; the entry warning only for NL and DE. */
export default function ChatLayout() {
  const { settings, lang } = useRootData();
  const user = useUser();
  useLoggedOutRedirect();
  usePageTitlePrefix(user);
  useMemberActivity(user);
  const warnCountry = settings.geoip_country === 'NL' || settings.geoip_country === 'DE';
  return (
    <>
      <TopNav user={user} siteName={settings.name} lang={lang} />
      <Outlet />
      <EntryWarning enabled={settings.enable_site_entry_popup && warnCountry} signedIn={Boolean(user)} country={settings.geoip_country} countries={settings.countries} />
    </>
  );
}
