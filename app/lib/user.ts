import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from './query.ts';
import type { ApiUser } from '#common/api-types.ts';
import { useRootData } from './root-data.ts';
import { useDelayed, usePollInterval } from './activity.ts';
import { api } from './api.ts';

/** GET /api/user.php: the member as the server has them now. */
const fetchUser = async () => (await api<{ user: ApiUser }>('/api/user.php', { retries: 0 })).user;

/**
 * The member fetched again now, also in the first seconds of a page, before polling starts (an invalidation then
 * fetches nothing, since no poll watches yet): their counts (new likes, unread messages) follow at once.
 */
export async function reloadUser(client: QueryClient): Promise<void> {
  client.setQueryData(['user'], await fetchUser());
}

/** The signed-in member (or null), rendered by the server and re-fetched by polling. */
export function useUser(): ApiUser | null {
  const root = useRootData();
  // Polling starts a few seconds after the page loads, so the first paint is not slowed down.
  const polling = useDelayed();
  const interval = usePollInterval();
  const client = useQueryClient();
  // A navigation re-runs the root loader: its fresher user replaces the cached one. At hydration the cache holds
  // this very record (initialData): writing it again would make every component that shows the member render
  // again at once, in the same task.
  useEffect(() => {
    if (client.getQueryData(['user']) !== root.user) client.setQueryData(['user'], root.user);
  }, [client, root.user]);
  // Spec section 9: the first poll comes when polling starts (5 s), then every interval.
  useEffect(() => {
    if (polling && root.user) void client.invalidateQueries({ queryKey: ['user'] });
  }, [client, polling, root.user]);
  const { data } = useQuery({
    queryKey: ['user'],
    queryFn: fetchUser,
    initialData: root.user,
    enabled: Boolean(root.user) && polling,
    refetchInterval: interval,
    staleTime: interval,
  });
  return root.user ? (data ?? null) : null;
}

export function useSetUser() {
  const client = useQueryClient();
  return (update: (u: ApiUser) => ApiUser) => client.setQueryData<ApiUser | null>(['user'], (u) => (u ? update(u) : u));
}
