import { useQuery, useQueryClient } from '../../lib/query.ts';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api.ts';

/** Spec section 3/4: unknown until checked, then not capable, or capable and subscribed, not subscribed or denied. */
export type PushState = 'unknown' | 'not_capable' | 'subscribed' | 'not_subscribed' | 'denied';

export const PUSH_STATE_KEY = ['push-state'] as const;
import { SERVICE_WORKER_URL as SW_URL } from '../../lib/app-shell.ts';

export function pushCapable(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  return existing ?? navigator.serviceWorker.register(SW_URL, { scope: '/' });
}

/** The browser's push state: its permission and whether this browser has a subscription. */
export async function detectPushState(): Promise<PushState> {
  if (!pushCapable()) return 'not_capable';
  if (Notification.permission === 'denied') return 'denied';
  try {
    const reg = await registration();
    const sub = await reg.pushManager.getSubscription();
    return sub ? 'subscribed' : 'not_subscribed';
  } catch {
    return 'not_capable';
  }
}

function urlBase64ToUint8Array(value: string): Uint8Array<ArrayBuffer> {
  const base64 = (value + '='.repeat((4 - (value.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

const postSubscription = (subscription: PushSubscriptionJSON | false | 'denied') =>
  api<{ push: { state: string } }>('/api/user.php?push=1', { method: 'POST', body: { subscription } });

/** Asks for permission and subscribes; a refusal is recorded as denied. */
export async function subscribePush(publicKey: string): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') {
    await postSubscription('denied');
    return 'denied';
  }
  if (permission !== 'granted') return 'not_subscribed';
  const reg = await registration();
  const sub = (await reg.pushManager.getSubscription())
    ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToUint8Array(publicKey) }));
  await postSubscription(sub.toJSON());
  return 'subscribed';
}

export async function unsubscribePush(): Promise<PushState> {
  const reg = await registration();
  const sub = await reg.pushManager.getSubscription();
  await sub?.unsubscribe();
  await postSubscription(false);
  return 'not_subscribed';
}

/** The push state of this browser, shared by every component (polling interval, alert, settings). */
export function usePushState() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: PUSH_STATE_KEY,
    queryFn: detectPushState,
    staleTime: Infinity,
    retry: false,
  });
  const set = useCallback((state: PushState) => client.setQueryData(PUSH_STATE_KEY, state), [client]);
  return { state: query.data ?? ('unknown' as PushState), set };
}

/**
 * For a signed-in member: a subscription this browser already has is posted to the account (it may
 * be new to this account), and the service worker's messages are handled: NEW_PUSH_MESSAGE refreshes
 * the counters, NEW_PUSH_CLICK goes in-app to checkUrl (or opens openUrl when signed out).
 */
export function usePushMessages(signedIn: boolean) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { state } = usePushState();
  useEffect(() => {
    if (!signedIn || state !== 'subscribed') return;
    void (async () => {
      const sub = await (await registration()).pushManager.getSubscription();
      if (sub) await postSubscription(sub.toJSON()).catch(() => undefined);
    })();
  }, [signedIn, state]);
  useEffect(() => {
    if (!pushCapable()) return;
    const onMessage = (event: MessageEvent) => {
      const msg = event.data as { type?: string; data?: { checkUrl?: string; openUrl?: string } } | null;
      if (msg?.type === 'NEW_PUSH_MESSAGE') {
        void client.invalidateQueries({ queryKey: ['user'] });
        void client.invalidateQueries({ queryKey: ['chats'] });
      } else if (msg?.type === 'NEW_PUSH_CLICK') {
        const checkUrl = msg.data?.checkUrl ?? '/';
        if (signedIn && checkUrl.startsWith('/')) void navigate(checkUrl);
        else window.location.assign(msg.data?.openUrl ?? '/');
      }
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [client, navigate, signedIn]);
}
