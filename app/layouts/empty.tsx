import { Outlet } from 'react-router';
import { SignupProvider } from '../features/signup/SignupModal.tsx';
import { useRootData } from '../lib/root-data.ts';

/** Only the page and the sign-up modal. */
export default function EmptyLayout() {
  const { user } = useRootData();
  return (
    <SignupProvider signedIn={Boolean(user)}>
      <Outlet />
    </SignupProvider>
  );
}
