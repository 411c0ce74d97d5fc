import type { Language } from '#common/languages.ts';
import { api } from './api.ts';
import { useQuery, type QueryClient } from './query.ts';

export interface Region { country: string; code: string; name: string }
export interface Interest { key: string; name: string }

/**
 * Spec section 7: the regions and the interests are each fetched once per page life and skipped when loaded. One
 * cache entry each (every region of every country; the interests in the page's language), never stale, and seeded
 * by a page whose loader brought them already: a form that changes country filters, it does not ask again.
 */
export function useRegions(initial?: Region[], enabled = true): Region[] {
  return useQuery({
    queryKey: REGIONS_KEY, queryFn: fetchRegions, initialData: initial, staleTime: Infinity, enabled,
  }).data ?? [];
}

const REGIONS_KEY = ['regions'];

/** Every region of every country (GET /api/regions.php). */
async function fetchRegions(): Promise<Region[]> {
  return (await api<{ regions: Region[] }>('/api/regions.php')).regions;
}

/** The region list for a handler: from useRegions' cache entry, fetched into it when not there yet (once a page life). */
export async function loadRegions(client: QueryClient): Promise<Region[]> {
  const cached = client.getQueryData<Region[]>(REGIONS_KEY);
  if (cached) return cached;
  const regions = await fetchRegions();
  client.setQueryData(REGIONS_KEY, regions);
  return regions;
}

export function useInterests(lang: Language, initial?: Interest[]): Interest[] {
  return useQuery({
    queryKey: ['interests', lang], queryFn: async () => (await api<{ interests: Interest[] }>('/api/interests.php')).interests, initialData: initial, staleTime: Infinity,
  }).data ?? [];
}
