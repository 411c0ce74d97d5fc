import { QueryClient } from './query.ts';

/**
 * The app's query client. Queries never retry on their own: retries live in api() alone (up to 5 tries,
 * exponential delay), so a failing poll is 5 requests, not 5 for every retry of the query.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient();
}
