import type { Agent } from 'node:https';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../db/client.ts';
import { appSecrets, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AddressRefusedError, createPublicOnlyAgent } from '../infra/public-address.ts';
import { requireMember, type Actor } from '../actor.ts';
import { checkEndpoint, knownPushServices, parseSubscription, type EndpointPolicy } from './endpoint-policy.ts';

export { parseSubscription };

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

/**
 * Web push with VAPID. Keys come from the environment, or are generated once and kept in
 * app_secrets so that every instance signs with the same pair.
 */
export function createPushService(deps: { db: Db; clock: Clock; vapid?: Partial<VapidKeys>; logger?: { error(m: string, ...r: unknown[]): void };
  /** Which endpoints members may subscribe with: the known browser push services unless a test gives a local one. */
  endpointPolicy?: EndpointPolicy;
  /**
   * The HTTPS agent for push service requests: by default one that connects to public addresses only.
   * Tests give one built with createPublicOnlyAgent (their own resolver) or one that trusts a local test service.
   */
  agent?: Agent;
}) {
  const { db } = deps;
  const policy = deps.endpointPolicy ?? knownPushServices;
  const agent = deps.agent ?? createPublicOnlyAgent({ keepAlive: true });
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
    async setSubscription(actor: Actor, value: unknown): Promise<PushState> {
      const { userId } = requireMember(actor);
      if (value === false || value === null) {
        await db.update(users).set({ pushState: 'not_subscribed', pushSubscription: null }).where(eq(users.id, userId));
        return 'not_subscribed';
      }
      if (value === 'denied') {
        await db.update(users).set({ pushState: 'denied', pushSubscription: null }).where(eq(users.id, userId));
        return 'denied';
      }
      const subscription = parseSubscription(value, policy);
      await db.update(users).set({ pushState: 'subscribed', pushSubscription: subscription }).where(eq(users.id, userId));
      return 'subscribed';
    },

    async state(actor: Actor): Promise<PushState> {
      const { userId } = requireMember(actor);
      const [row] = await db.select({ s: users.pushState }).from(users).where(eq(users.id, userId));
      return row?.s ?? 'unknown';
    },

    /**
     * Sends a notification to the member's subscription, if any. A subscription the push service no
     * longer knows (404/410), or one whose endpoint is no longer acceptable, is cleared; a connection the
     * agent refuses (the push service's name resolved to a private address) and other failures are
     * logged and the subscription kept. Never throws: the caller is a like or a message.
     */
    async notify(userId: number, payload: PushPayload): Promise<'sent' | 'none' | 'gone' | 'refused' | 'failed'> {
      const [row] = await db
        .select({ subscription: users.pushSubscription, state: users.pushState, status: users.status })
        .from(users)
        .where(eq(users.id, userId));
      if (!row?.subscription || row.state !== 'subscribed' || row.status === 'deleted') return 'none';
      const clear = () => db.update(users).set({ pushState: 'not_subscribed', pushSubscription: null }).where(eq(users.id, userId));
      // Subscriptions stored before the endpoint rules existed are checked again before any request.
      const endpoint = checkEndpoint(row.subscription.endpoint, policy);
      if (endpoint === null || endpoint === 'unknown') {
        deps.logger?.error(`push to member ${userId} refused: the stored endpoint is not at a known push service; subscription cleared`);
        await clear();
        return 'refused';
      }
      try {
        const vapid = await vapidKeys();
        await webpush.sendNotification(row.subscription, JSON.stringify(payload), {
          vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: 24 * 60 * 60,
          urgency: 'normal',
          timeout: 10_000,
          agent,
        });
        return 'sent';
      } catch (error) {
        if (error instanceof AddressRefusedError) {
          deps.logger?.error(`push to member ${userId} refused: ${error.message}`);
          return 'refused';
        }
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) {
          await clear();
          return 'gone';
        }
        // Only the host: the endpoint's path is the member's secret push address.
        deps.logger?.error(`push to member ${userId} at ${endpoint.host} failed: ${status ?? ''} ${(error as Error).message}`);
        return 'failed';
      }
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
