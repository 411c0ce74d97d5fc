import { QueryClient } from '@tanstack/react-query';

/**
 * The app's query client. Retries live in api() alone (up to 5 tries, exponential delay): a
 * retry here as well would multiply them (5 × 6 = up to 36 requests for one failing poll).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
