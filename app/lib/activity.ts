import { useEffect, useState } from 'react';
import { queryOptions, useQuery } from './query.ts';
import type { ApiUser, ChatSummary } from '#common/api-types.ts';
import { POLL_INTERVAL_MS, POLL_INTERVAL_PUSH_MS, POLL_START_DELAY_MS } from '#common/constants.ts';
import { usePushState } from '../features/push/push.ts';
import { api } from './api.ts';

/** Spec section 9: user and chats are polled every 60 s, or every 300 s when push notifications arrive. */
export function usePollInterval(): number {
  const { state } = usePushState();
  return state === 'subscribed' ? POLL_INTERVAL_PUSH_MS : POLL_INTERVAL_MS;
}

/** Starts after a delay so the first paint is not slowed down. */
export function useDelayed(ms = POLL_START_DELAY_MS): boolean {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setStarted(true), ms);
    return () => clearTimeout(t);
  }, [ms]);
  return started;
}

/** The conversation list is kept fresh in every layout for a signed-in member. */
export function useChatsPolling(signedIn: boolean) {
  const interval = usePollInterval();
  const started = useDelayed();
  useQuery({ ...chatsPoll(interval), enabled: signedIn && started });
}

/** The conversation-list poll (spec section 9), apart from the hook so that its requests can be counted in a test. */
export function chatsPoll(interval: number) {
  return queryOptions({
    queryKey: ['chats'],
    queryFn: async ({ signal }) => (await api<{ chats: ChatSummary[] }>('/api/chats.php', { signal })).chats,
    refetchInterval: interval,
    staleTime: 5_000,
  });
}

/** When a page becomes hidden, tell the server (a beacon survives the page closing). */
export function usePageHiddenBeacon(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn || typeof navigator.sendBeacon !== 'function') return;
    const onChange = () => {
      if (document.visibilityState === 'hidden') {
        navigator.sendBeacon('/api/page-hidden.php', new Blob(['{}'], { type: 'application/json' }));
      }
    };
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, [signedIn]);
}

/** The installed app's badge: unread messages plus new likes. Browsers without badges are ignored. */
export function useAppBadge(user: ApiUser | null) {
  const count = user ? user.num_unread_messages + user.num_new_likes : 0;
  useEffect(() => {
    const nav = navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    try {
      const result = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.();
      void result?.catch(() => undefined);
    } catch {
      // Spec section 8: app badge failures are silently ignored.
    }
  }, [count]);
}
