import { Container, Navbar } from 'react-bootstrap';
import { Link, Outlet } from 'react-router';
import { EntryWarning } from '../components/EntryWarning.tsx';
import { Footer } from '../components/Footer.tsx';
import { useRootData } from '../root.tsx';
import { SignupProvider } from '../features/signup/SignupModal.tsx';

/** Landing pages: a simple navbar with the logo, the page, the footer; the entry warning for NL and DE. */
export default function LanderLayout() {
  const { settings, user } = useRootData();
  const warnCountry = settings.geoip_country === 'NL' || settings.geoip_country === 'DE';
  return (
    // Landing pages' calls to action open the sign-up modal (in the member's context) on larger screens.
    <SignupProvider signedIn={Boolean(user)}>
      <Navbar bg="dark" variant="dark">
        <Container>
          <Navbar.Brand as={Link} to={user ? '/members' : '/'} data-testid="logo">{settings.name}</Navbar.Brand>
        </Container>
      </Navbar>
      <main>
        <Outlet />
      </main>
      <Footer siteName={settings.name} />
      <EntryWarning enabled={settings.enable_site_entry_popup && warnCountry} signedIn={Boolean(user)} country={settings.geoip_country} countries={settings.countries} />
    </SignupProvider>
  );
}
