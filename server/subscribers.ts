import type { Translator } from './i18n/i18n.ts';
import type { AppEvents } from './infra/events.ts';
import { publishLiveEvents } from './live/live-events.ts';
import { pushNotifications } from './push/push-notifications.ts';
import type { Services } from './services.ts';

/**
 * Every reaction to a domain event, in one place. Durable subscribers (mail, push) run from the
 * outbox, exactly once per event unless they fail (then they are retried); their names are stored
 * with each outbox row, so they never change. Live listeners tell members' open tabs.
 */
export function registerSubscribers(services: Services, translator: Translator) {
  const { events, lifecycle, notifications } = services;
  const push = pushNotifications(services, translator);

  events.durable('account.created', 'mail.activation', ({ userId }) => lifecycle.sendActivation(userId));
  // Never while the recipient is looking at the conversation, nor once they have read the message.
  const unlessSeen = (notify: (e: AppEvents['message.sent']) => Promise<void>) => async (e: AppEvents['message.sent']) => {
    if (!(await services.chat.seenOrViewing(e))) await notify(e);
  };
  events.durable('message.sent', 'mail.new_message', unlessSeen(notifications.mailNewMessage));
  events.durable('message.sent', 'push.new_message', unlessSeen(push.newMessage));
  events.durable('like.created', 'mail.new_like', notifications.mailNewLike);
  events.durable('like.created', 'push.new_like', push.newLike);
  // Live, not durable: an outbox row on every profile view would cost more than a lost visit mail.
  events.on('profile.visited', notifications.mailProfileVisit);
  events.durable('photo.reviewed', 'mail.photo_reviewed', notifications.mailPhotoReviewed);
  events.durable('notice.received', 'mail.notice_received', services.notices.mailReceived);
  events.durable('notice.decided', 'mail.notice_decided', services.notices.mailDecided);

  publishLiveEvents(events, services.live);
}
