import type { Translator } from './i18n/i18n.ts';
import type { AppEvents } from './infra/events.ts';
import type { Metrics } from './infra/metrics.ts';
import { publishLiveEvents } from './live/live-events.ts';
import { pushNotifications } from './push/push-notifications.ts';
import type { Services } from './use-cases.ts';

/**
 * Every reaction to a domain event, in one place. Durable subscribers (mail, push) run from the
 * outbox, exactly once per event unless they fail (then they are retried); their names are stored
 * with each outbox row, so they never change. Live listeners tell members' open tabs.
 */
export function registerSubscribers(services: Services, translator: Translator) {
  const { events, lifecycle, notifications } = services;
  const push = pushNotifications(services, translator);

  events.durable('account.created', 'mail.activation', ({ userId }) => lifecycle.sendActivation(userId));
  // A mail the mail server did not take while it was away.
  events.durable('mail.queued', 'mail.queued', services.mail.deliverQueued);
  // Never while the recipient is looking at the conversation, nor once they have read the message.
  const unlessSeen = (notify: (e: AppEvents['message.sent']) => Promise<void>) => async (e: AppEvents['message.sent']) => {
    if (!(await services.chat.seenOrViewing(e))) await notify(e);
  };
  events.durable('message.sent', 'mail.new_message', unlessSeen(notifications.mailNewMessage));
  events.durable('message.sent', 'push.new_message', unlessSeen(push.newMessage));
  // Automatic flags read what was sent, for the moderators' members queue (never restricting anyone by themselves).
  events.durable('message.sent', 'moderation.flags', services.flags.checkMessage);
  events.durable('like.created', 'mail.new_like', notifications.mailNewLike);
  events.durable('like.created', 'push.new_like', push.newLike);
  // Live, not durable: an outbox row on every profile view would cost more than a lost visit mail.
  events.on('profile.visited', notifications.mailProfileVisit);
  events.durable('photo.reviewed', 'mail.photo_reviewed', notifications.mailPhotoReviewed);
  events.durable('notice.received', 'mail.notice_received', services.notices.mailReceived);
  events.durable('notice.decided', 'mail.notice_decided', services.notices.mailDecided);
  events.durable('statement.issued', 'mail.statement_issued', services.statements.mailIssued);
  events.durable('appeal.decided', 'mail.appeal_decided', services.statements.mailAppealDecided);

  publishLiveEvents(events, services.live);
}

/** What the metrics count as it happens: messages sent through this instance, outbox rows it runs. */
export function registerMetrics(services: Pick<Services, 'events'>, metrics: Metrics) {
  services.events.on('message.sent', ({ kind }) => metrics.messageSent(kind ?? 'text'));
  services.events.onDelivery((subscriber, ok) => metrics.delivery(subscriber, ok));
}
