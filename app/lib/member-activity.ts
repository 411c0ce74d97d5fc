import type { ApiUser } from '#common/api-types.ts';
import { usePushMessages } from '../features/push/push.ts';
import { useAppBadge, useChatsPolling, usePageHiddenBeacon } from './activity.ts';

/** What every layout does for a signed-in member: polling, push messages, the page-hidden beacon, the app badge. */
export function useMemberActivity(user: ApiUser | null) {
  const signedIn = Boolean(user);
  useChatsPolling(signedIn);
  usePushMessages(signedIn);
  usePageHiddenBeacon(signedIn);
  useAppBadge(user);
}
