import type { Agent } from 'node:https';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../db/client.ts';
import { appSecrets, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushPayload {
  title: string;
  body: string;
  /** In-app path the page navigates to when the member is signed in. */
  checkUrl: string;
  /** Address the service worker opens when no page can take the click. */
  openUrl: string;
  tag?: string;
}

export type PushState = 'unknown' | 'subscribed' | 'not_subscribed' | 'denied';

const VAPID_SECRET = 'vapid_keys';
const DEFAULT_SUBJECT = 'mailto:support@example.com';

/** A browser push subscription as PushSubscription.toJSON() gives it; anything else is refused. */
export function parseSubscription(value: unknown): PushSubscriptionJson {
  const v = value as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  const ok =
    v && typeof v === 'object' && typeof v.endpoint === 'string' && /^https?:\/\//.test(v.endpoint) && v.endpoint.length <= 2000 &&
    v.keys && typeof v.keys.p256dh === 'string' && typeof v.keys.auth === 'string' &&
    /^[A-Za-z0-9_-]{20,200}={0,2}$/.test(v.keys.p256dh) && /^[A-Za-z0-9_-]{8,100}={0,2}$/.test(v.keys.auth);
  if (!ok) throw new AppError(400, 'push_subscription_invalid');
  return { endpoint: v.endpoint as string, keys: { p256dh: v.keys!.p256dh as string, auth: v.keys!.auth as string } };
}

/**
 * Web push with VAPID. Keys come from the environment, or are generated once and kept in
 * app_secrets so that every instance signs with the same pair.
 */
export function createPushService(deps: { db: Db; clock: Clock; vapid?: Partial<VapidKeys>; logger?: { error(m: string, ...r: unknown[]): void };
  /** The HTTPS agent for push service requests (a proxy, or a test certificate). */
  agent?: Agent;
}) {
  const { db } = deps;
  let keys: Promise<VapidKeys> | undefined;

  async function loadKeys(): Promise<VapidKeys> {
    const subject = deps.vapid?.subject || DEFAULT_SUBJECT;
    if (deps.vapid?.publicKey && deps.vapid.privateKey) return { publicKey: deps.vapid.publicKey, privateKey: deps.vapid.privateKey, subject };
    const generated = webpush.generateVAPIDKeys();
    // Two instances starting together: the first insert wins and both read the same row.
    await db.insert(appSecrets).values({ key: VAPID_SECRET, value: JSON.stringify(generated) }).onConflictDoNothing();
    const [row] = await db.select().from(appSecrets).where(eq(appSecrets.key, VAPID_SECRET));
    const stored = JSON.parse(row.value) as { publicKey: string; privateKey: string };
    return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
  }

  function vapidKeys(): Promise<VapidKeys> {
    keys ??= loadKeys().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  }

  return {
    vapidKeys,
    async publicKey(): Promise<string> {
      return (await vapidKeys()).publicKey;
    },

    /** A subscription, or false (not subscribed) or 'denied' (the browser refused permission). */
    async setSubscription(userId: number, value: unknown): Promise<PushState> {
      if (value === false || value === null) {
        await db.update(users).set({ pushState: 'not_subscribed', pushSubscription: null }).where(eq(users.id, userId));
        return 'not_subscribed';
      }
      if (value === 'denied') {
        await db.update(users).set({ pushState: 'denied', pushSubscription: null }).where(eq(users.id, userId));
        return 'denied';
      }
      const subscription = parseSubscription(value);
      await db.update(users).set({ pushState: 'subscribed', pushSubscription: subscription }).where(eq(users.id, userId));
      return 'subscribed';
    },

    async state(userId: number): Promise<PushState> {
      const [row] = await db.select({ s: users.pushState }).from(users).where(eq(users.id, userId));
      return row?.s ?? 'unknown';
    },

    /**
     * Sends a notification to the member's subscription, if any. A subscription the push service no
     * longer knows (404/410) is cleared; other failures are logged and the subscription kept.
     */
    async notify(userId: number, payload: PushPayload): Promise<'sent' | 'none' | 'gone' | 'failed'> {
      const [row] = await db
        .select({ subscription: users.pushSubscription, state: users.pushState, status: users.status })
        .from(users)
        .where(eq(users.id, userId));
      if (!row?.subscription || row.state !== 'subscribed' || row.status === 'deleted') return 'none';
      const vapid = await vapidKeys();
      try {
        await webpush.sendNotification(row.subscription, JSON.stringify(payload), {
          vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: 24 * 60 * 60,
          urgency: 'normal',
          timeout: 10_000,
          ...(deps.agent ? { agent: deps.agent } : {}),
        });
        return 'sent';
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) {
          await db.update(users).set({ pushState: 'not_subscribed', pushSubscription: null }).where(eq(users.id, userId));
          return 'gone';
        }
        deps.logger?.error(`push to member ${userId} failed:`, error);
        return 'failed';
      }
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
