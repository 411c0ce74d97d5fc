import Container from 'react-bootstrap/Container';
import Navbar from 'react-bootstrap/Navbar';
import { Link, Outlet, useMatches } from 'react-router';
import { EntryWarning } from '../components/EntryWarning.tsx';
import { Footer } from '../components/Footer.tsx';
import { SiteLogo } from '../components/SiteLogo.tsx';
import { useRootData } from '../lib/root-data.ts';
import { SignupProvider } from '../features/signup/SignupModal.tsx';
import { countryWarns } from '../lib/entry-warning.ts';
import type { HydrationHandle } from '../lib/hydrate-on-interaction.ts';

/** A lander route names its look in its handle; the navbar takes that look's colours. */
export interface LanderHandle extends HydrationHandle {
  lander: string;
}

/** Landing pages work as the server rendered them; their code starts when the visitor interacts. */
export const handle: HydrationHandle = { hydrate: 'on-interaction' };

/** Landing pages: a simple navbar with the logo, the page, the footer; the entry warning for NL and DE. */
export default function LanderLayout() {
  const { settings, user } = useRootData();
  const lander = (useMatches().at(-1)?.handle as LanderHandle | undefined)?.lander;
  return (
    // Landing pages' calls to action open the sign-up modal (in the member's context) on larger screens.
    <SignupProvider signedIn={Boolean(user)}>
      <div className="lander-shell" data-lander={lander ?? 'landing'}>
        <Navbar bg="dark" variant="dark" className="lander-navbar">
          <Container>
            <Navbar.Brand as={Link} to={user ? '/members' : '/'} data-testid="logo" aria-label={settings.name}><SiteLogo /></Navbar.Brand>
          </Container>
        </Navbar>
        <main>
          <Outlet />
        </main>
      </div>
      <Footer siteName={settings.name} country={settings.geoip_country} />
      <EntryWarning enabled={countryWarns(settings)} signedIn={Boolean(user)} country={settings.geoip_country} countries={settings.countries} />
    </SignupProvider>
  );
}
