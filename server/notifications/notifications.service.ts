import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  EMAIL_CATEGORIES, type DisabledReason, type EmailCategory, type NotificationSettings, type NotificationsUpdate,
} from '#common/notifications.ts';
import type { Db } from '../db/client.ts';
import { appSecrets, mailEvents, profiles, sites, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import type { AppEvents } from '../infra/events.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { MailService } from './mail.service.ts';
import { requireMember, type Actor } from '../actor.ts';
import { withoutRefusedCharacters } from '#common/input.ts';
import type { z } from 'zod';
import type { mailEventBody } from '#common/contracts/notifications.ts';

const SIGNING_KEY = 'mail_signing_key';
/** How long this process keeps a visitor → visited pair it handled, and how many pairs at most. */
const RECENT_VISIT_MS = 60 * 60 * 1000;
const RECENT_VISITS_MAX = 10_000;

/**
 * E-mail notifications: the member's 8 categories, the reasons mail stopped (bounce, spam
 * complaint, list-unsubscribe), one-click unsubscribe links (RFC 8058) and the mails sent
 * for new messages, likes, matches and profile visits.
 */
export function createNotificationsService(deps: {
  db: Db; clock: Clock; mail: MailService;
  /** Caps on notification mails (infra/limits.ts): per liker → liked and visitor → visited pair, and per recipient. */
  limits: { likeMailPerPair: RateLimiter; visitMailPerPair: RateLimiter; visitMailsPerRecipient: RateLimiter; mailsPerRecipient: RateLimiter };
}) {
  const { db, clock, mail } = deps;
  let key: Promise<Buffer> | undefined;

  /** The HMAC key for unsubscribe links: generated once and shared by every instance through the database. */
  function signingKey(): Promise<Buffer> {
    key ??= (async () => {
      await db.insert(appSecrets).values({ key: SIGNING_KEY, value: randomBytes(32).toString('base64url') }).onConflictDoNothing();
      const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, SIGNING_KEY));
      return Buffer.from(row.value, 'base64url');
    })();
    key.catch(() => { key = undefined; });
    return key;
  }

  async function sign(userId: number, category: string): Promise<string> {
    return createHmac('sha256', await signingKey()).update(`unsubscribe:${userId}:${category}`).digest('base64url').slice(0, 32);
  }

  async function settings(userId: number): Promise<NotificationSettings> {
    const [u] = await db.select({
      optOut: users.emailOptOut, disabled: users.notificationsDisabled, invisible: users.invisible, readReceipts: users.readReceipts, wordFilter: users.wordFilter,
      hideFictional: sql<boolean>`coalesce(${users.hideFictional}, ${sites.hideFictionalDefault})`,
    })
      .from(users).innerJoin(sites, eq(sites.id, users.siteId)).where(eq(users.id, userId));
    if (!u) throw new AppError(404, 'not_found');
    return {
      email: Object.fromEntries(EMAIL_CATEGORIES.map((c) => [c, !u.optOut.includes(c)])) as Record<EmailCategory, boolean>,
      notifications_disabled: u.disabled,
      invisible: u.invisible,
      read_receipts: u.readReceipts,
      hide_fictional: u.hideFictional,
      word_filter: u.wordFilter,
    };
  }

  async function unsubscribeUrl(userId: number, category: EmailCategory): Promise<string> {
    return `/api/unsubscribe.php?u=${userId}&c=${category}&s=${await sign(userId, category)}`;
  }

  /**
   * Sends one category mail when the member still wants it: the category is on, no reason has
   * stopped their mail, the address is confirmed, and it can receive mail at all (demo profiles
   * live at *.invalid, RFC 2606). An unconfirmed address was typed by whoever signed up, maybe a
   * stranger's: it gets the activation mail and nothing else, so no other member's name (or the
   * name the account was given) reaches a mailbox that never asked for it.
   */
  async function sendCategoryMail(userId: number, category: EmailCategory, kind: string, params: Record<string, string | number>, link: string): Promise<boolean> {
    const [u] = await db
      .select({ email: users.email, status: users.status, language: users.language, siteId: users.siteId, optOut: users.emailOptOut, disabled: users.notificationsDisabled, name: profiles.name })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, userId));
    if (!u || u.status !== 'active' || u.optOut.includes(category) || u.disabled.length > 0) return false;
    if (/\.invalid$/i.test(u.email)) return false;
    const url = await unsubscribeUrl(userId, category);
    const base = await mail.baseUrlFor(u.siteId);
    const [{ supportEmail }] = await db.select({ supportEmail: sites.supportEmail }).from(sites).where(eq(sites.id, u.siteId));
    await mail.send({
      to: u.email, lang: u.language, siteId: u.siteId, kind, params: { name: u.name, ...params }, link,
      unsubscribe: { url, category },
      headers: {
        // RFC 2369 + RFC 8058: mail programs show an unsubscribe button that POSTs to the https URL.
        'List-Unsubscribe': `<${base}${url}>, <mailto:${supportEmail}?subject=unsubscribe%20${category}%20${userId}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'List-Id': `${category} <${category}.${new URL(base).hostname}>`,
      },
    });
    return true;
  }

  async function profileName(userId: number): Promise<string> {
    const [p] = await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, userId));
    return p?.name ?? '';
  }

  async function isInvisible(userId: number): Promise<boolean> {
    const [u] = await db.select({ invisible: users.invisible }).from(users).where(eq(users.id, userId));
    return Boolean(u?.invisible);
  }

  // Mails for what happened to a member. A message reaches its recipient whoever sends it; an
  // invisible liker stays out of the likes lists, so no mail names them either. Nobody can make
  // the server flood a mailbox: one like mail per pair a day, and a cap per recipient an hour.
  // server/subscribers.ts delivers these through the outbox.
  const { limits } = deps;
  const overRecipientCap = async (userId: number) => (await limits.mailsPerRecipient.hit(String(userId))) > 0;
  async function mailNewMessage({ senderId, recipientId, conversationId, kind }: AppEvents['message.sent']) {
    if (await overRecipientCap(recipientId)) return;
    // A gift is mailed in its own category, so the settings' Gifts switch is what stops it.
    const category = kind === 'gift' ? 'gift' : 'new_message';
    await sendCategoryMail(recipientId, category, 'new_message', { sender: await profileName(senderId) }, `/chats/${conversationId}`);
  }
  async function mailNewLike({ likerId, likedId, match }: AppEvents['like.created']) {
    if (await isInvisible(likerId)) return;
    if ((await limits.likeMailPerPair.hit(`${likerId}:${likedId}`)) > 0 || (await overRecipientCap(likedId))) return;
    const other = await profileName(likerId);
    if (match) await sendCategoryMail(likedId, 'new_match', 'new_match', { other }, `/members/${likerId}`);
    else await sendCategoryMail(likedId, 'new_like', 'new_like', { other }, '/likes');
  }

  // A member browsing back and forth opens the same profiles again and again: this process remembers the
  // pairs it handled in the last hour and asks neither the database nor the shared counters about them.
  const recentVisits = new Map<string, number>();
  function visitedRecently(pair: string): boolean {
    const now = clock().getTime();
    const at = recentVisits.get(pair);
    if (at !== undefined && now - at < RECENT_VISIT_MS) return true;
    recentVisits.delete(pair);
    recentVisits.set(pair, now);
    if (recentVisits.size > RECENT_VISITS_MAX) recentVisits.delete(recentVisits.keys().next().value!);
    return false;
  }

  /**
   * "Profile visits": someone looked at the member's profile. An invisible visitor leaves no trace; one mail per
   * visitor a week, a few a day per member, within the hourly cap of all notification mails.
   */
  async function mailProfileVisit({ visitorId, visitedId }: AppEvents['profile.visited']) {
    const pair = `${visitorId}:${visitedId}`;
    if (visitedRecently(pair) || (await isInvisible(visitorId))) return;
    if ((await limits.visitMailPerPair.hit(pair)) > 0) return;
    if ((await limits.visitMailsPerRecipient.hit(String(visitedId))) > 0 || (await overRecipientCap(visitedId))) return;
    await sendCategoryMail(visitedId, 'profile_visit', 'profile_visit', { other: await profileName(visitorId) }, `/members/${visitorId}`);
  }

  /** The photo check's outcome ("Photo checks" switch): approved photos stay, rejected ones are gone from the profile. */
  async function mailPhotoReviewed({ userId, approved }: AppEvents['photo.reviewed']) {
    if (await overRecipientCap(userId)) return;
    await sendCategoryMail(userId, 'photo_approved', approved ? 'photo_approved' : 'photo_rejected', {}, '/profile');
  }

  const service = {
    mailNewMessage,
    mailNewLike,
    mailProfileVisit,
    mailPhotoReviewed,
    /** The member's own settings: which mails they get, why mail stopped, invisibility, read receipts, word filter. */
    settings: async (actor: Actor): Promise<NotificationSettings> => settings(requireMember(actor).userId),
    unsubscribeUrl,
    sendCategoryMail,

    /** Checked input (notificationsUpdateSchema, or the settings page's forms): only what is given changes. */
    async update(actor: Actor, input: NotificationsUpdate): Promise<NotificationSettings> {
      const { userId } = requireMember(actor);
      const current = await settings(userId);
      const email = { ...current.email, ...input.email };
      await db.update(users).set({
        emailOptOut: EMAIL_CATEGORIES.filter((c) => !email[c]),
        ...(input.invisible === undefined ? {} : { invisible: input.invisible }),
        ...(input.read_receipts === undefined ? {} : { readReceipts: input.read_receipts }),
        ...(input.hide_fictional === undefined ? {} : { hideFictional: input.hide_fictional }),
        ...(input.word_filter ? { wordFilter: input.word_filter } : {}),
      }).where(eq(users.id, userId));
      return settings(userId);
    },

    /** The member fixed what stopped their mail (e.g. a full mailbox) and turns e-mail back on. */
    async reenable(actor: Actor, reason: DisabledReason): Promise<NotificationSettings> {
      const { userId } = requireMember(actor);
      await db.update(users)
        .set({ notificationsDisabled: sql`coalesce((select jsonb_agg(r) from jsonb_array_elements_text(${users.notificationsDisabled}) r where r <> ${reason}), '[]'::jsonb)` })
        .where(eq(users.id, userId));
      return settings(userId);
    },

    /** One-click unsubscribe: turns exactly that category off, no session needed; the signature proves the link came from us. */
    async unsubscribe(userIdRaw: unknown, categoryRaw: unknown, signature: unknown): Promise<{ userId: number; category: EmailCategory; language: string }> {
      const userId = Number(userIdRaw);
      if (!Number.isSafeInteger(userId) || !(EMAIL_CATEGORIES as readonly unknown[]).includes(categoryRaw) || typeof signature !== 'string') throw new AppError(400, 'unsubscribe_link_invalid');
      const category = categoryRaw as EmailCategory;
      const expected = Buffer.from(await sign(userId, category));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(400, 'unsubscribe_link_invalid');
      const [u] = await db.select({ optOut: users.emailOptOut, language: users.language }).from(users).where(eq(users.id, userId));
      if (!u) throw new AppError(400, 'unsubscribe_link_invalid');
      if (!u.optOut.includes(category)) await db.update(users).set({ emailOptOut: [...u.optOut, category] }).where(eq(users.id, userId));
      return { userId, category, language: u.language };
    },

    /**
     * A bounce, spam complaint or list-unsubscribe reported by the mail provider. The event is
     * kept, and every account with that address stops getting notification mails for that reason.
     */
    async recordMailEvent(input: z.infer<typeof mailEventBody>): Promise<{ accounts: number }> {
      const { email, type: reason } = input;
      // The provider's diagnostic text is kept (a bounce must not be lost), without what the database cannot store.
      const detail = withoutRefusedCharacters(input.detail ?? '', true).slice(0, 500);
      await db.insert(mailEvents).values({ email, type: reason as 'bounce', detail, createdAt: clock() });
      const updated = await db.update(users)
        .set({ notificationsDisabled: sql`(select jsonb_agg(distinct r) from jsonb_array_elements_text(${users.notificationsDisabled} || ${JSON.stringify([reason])}::jsonb) r)` })
        .where(sql`lower(${users.email}) = ${email}`)
        .returning({ id: users.id });
      return { accounts: updated.length };
    },
  };

  return service;
}
