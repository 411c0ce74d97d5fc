import { useEffect } from 'react';
import { setAuthenticationRequiredHandler } from './api.ts';

/** A 403 authentication_required from any API call means the session ended: go to the log-in page. */
export function useLoggedOutRedirect() {
  useEffect(() => {
    setAuthenticationRequiredHandler(() => window.location.assign('/login'));
  }, []);
}
