import { eq } from 'drizzle-orm';
import { isLanguage } from '#common/languages.ts';
import { profiles, users } from '../db/schema.ts';
import type { Translator } from '../i18n/i18n.ts';
import type { AppEvents } from '../infra/events.ts';
import type { Services } from '../use-cases.ts';

/**
 * New messages and likes reach subscribed members as web push notifications, in their own language.
 * server/subscribers.ts delivers these through the outbox.
 */
export function pushNotifications(services: Pick<Services, 'db' | 'push' | 'rateLimits'>, translator: Translator) {
  const { db } = services;

  async function people(recipientId: number, actorId: number) {
    const [recipient] = await db.select({ language: users.language }).from(users).where(eq(users.id, recipientId));
    const [actor] = await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, actorId));
    if (!recipient || !actor) return null;
    return { lang: isLanguage(recipient.language) ? recipient.language : 'en', name: actor.name } as const;
  }

  // Like the mails: one like push per pair a day, and a cap per recipient an hour.
  const { likePushPerPair, pushesPerRecipient } = services.rateLimits;
  const overRecipientCap = async (userId: number) => (await pushesPerRecipient.hit(String(userId))) > 0;

  async function newMessage(e: AppEvents['message.sent']) {
    if (await overRecipientCap(e.recipientId)) return;
    const who = await people(e.recipientId, e.senderId);
    if (!who) return;
    const url = `/chats/${e.conversationId}`;
    await services.push.notify(e.recipientId, {
      title: translator.t(who.lang, 'push.new_message_title', { name: who.name }),
      body: e.kind === 'gift' || e.kind === 'photo'
        ? translator.t(who.lang, `push.new_${e.kind}_body`, { name: who.name })
        : e.text.length > 120 ? `${e.text.slice(0, 119)}…` : e.text,
      checkUrl: url, openUrl: url, tag: `chat-${e.conversationId}`,
    });
  }

  async function newLike(e: AppEvents['like.created']) {
    if ((await likePushPerPair.hit(`${e.likerId}:${e.likedId}`)) > 0 || (await overRecipientCap(e.likedId))) return;
    const who = await people(e.likedId, e.likerId);
    if (!who) return;
    const url = e.match ? '/likes/matches' : '/likes';
    await services.push.notify(e.likedId, {
      title: translator.t(who.lang, e.match ? 'push.new_match_title' : 'push.new_like_title', { name: who.name }),
      body: translator.t(who.lang, e.match ? 'push.new_match_body' : 'push.new_like_body', { name: who.name }),
      checkUrl: url, openUrl: url, tag: 'likes',
    });
  }

  return { newMessage, newLike };
}
