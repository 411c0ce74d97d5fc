import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from './query.ts';
import { useRevalidator } from 'react-router';
import { LIVE_CLOSE, LIVE_PATH, type LiveEvent } from '#common/live.ts';

/** Reconnect delays: 1 s doubling to 30 s, each with up to 30% jitter so instances are not hit at once. */
export function reconnectDelay(attempt: number, random = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** attempt);
  return Math.round(base * (1 + 0.3 * random()));
}

/** The window event other features listen to (e.g. the new-like overlay): `detail` is the LiveEvent. */
export const LIVE_WINDOW_EVENT = 'amora:live';

/** What an event changes in the caches; the queries refetch what they show. */
export function applyLiveEvent(client: QueryClient, event: LiveEvent, revalidate: () => void) {
  switch (event.type) {
    case 'message':
      void client.invalidateQueries({ queryKey: ['chats'] });
      void client.invalidateQueries({ queryKey: ['user'] });
      void client.invalidateQueries({ queryKey: ['messages', event.profile_id] });
      break;
    case 'like':
      void client.invalidateQueries({ queryKey: ['user'] });
      // The likes pages read their lists in the loader.
      if (window.location.pathname.startsWith('/likes')) revalidate();
      break;
    case 'read':
      void client.invalidateQueries({ queryKey: ['messages', event.profile_id] });
      break;
    case 'credits':
      void client.invalidateQueries({ queryKey: ['user'] });
      break;
    default:
      break;
  }
}

/** After a reconnect, events may have been missed: everything a tab shows of the member is refetched. */
function refetchAll(client: QueryClient, revalidate: () => void) {
  for (const key of ['user', 'chats', 'messages']) void client.invalidateQueries({ queryKey: [key] });
  revalidate();
}

/**
 * The live channel for a signed-in member's tab: events update the query caches at once. It
 * reconnects with back-off after a drop and then refetches, so nothing is missed; the polling of
 * spec section 9 goes on beside it as the fallback. `<html data-live>` says its state (tests).
 */
export function useLiveChannel(signedIn: boolean) {
  const client = useQueryClient();
  const { revalidate } = useRevalidator();
  // The socket lives as long as the session; a new revalidate function must not reopen it.
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  useEffect(() => {
    if (!signedIn || typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let attempt = 0;
    let everOpen = false;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reval = () => void revalidateRef.current();
    const state = (s: string) => { document.documentElement.dataset.live = s; };

    const connect = () => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${LIVE_PATH}`;
      socket = new WebSocket(url);
      state('connecting');
      socket.onmessage = (message) => {
        let event: LiveEvent;
        try {
          event = JSON.parse(String(message.data)) as LiveEvent;
        } catch {
          return;
        }
        if (event.type === 'ready') {
          if (everOpen) refetchAll(client, reval);
          everOpen = true;
          attempt = 0;
          state('open');
          return;
        }
        applyLiveEvent(client, event, reval);
        window.dispatchEvent(new CustomEvent(LIVE_WINDOW_EVENT, { detail: event }));
      };
      socket.onclose = (close) => {
        socket = null;
        state('closed');
        // Signed out (here or in another tab): polling notices and the root loader says so.
        if (stopped || close.code === LIVE_CLOSE.unauthorized) return;
        timer = setTimeout(connect, reconnectDelay(attempt++));
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      // Closing a socket that is still connecting makes the browser log an error: close it once open.
      if (socket?.readyState === WebSocket.CONNECTING) {
        const pending = socket;
        pending.onopen = () => pending.close();
      } else {
        socket?.close();
      }
      delete document.documentElement.dataset.live;
    };
  }, [client, signedIn]);
}
