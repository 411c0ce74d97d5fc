import type { ApiUser } from '#common/api-types.ts';
import { usePushMessages } from '../features/push/push.ts';
import { useAppBadge, useChatsPolling, usePageHiddenBeacon } from './activity.ts';
import { useLiveChannel } from './live.ts';

/** What every layout does for a signed-in member: the live channel, polling as its fallback, push messages, the page-hidden beacon, the app badge. */
export function useMemberActivity(user: ApiUser | null) {
  const signedIn = Boolean(user);
  useLiveChannel(signedIn);
  useChatsPolling(signedIn);
  usePushMessages(signedIn);
  usePageHiddenBeacon(signedIn);
  useAppBadge(user);
}
