import type { EventBus } from '../infra/events.ts';
import type { LiveBus } from '../infra/live-bus.ts';

/**
 * Domain events that members' open tabs must see at once. Each live event names only what changed;
 * the tabs refetch the rest through the API, with its usual checks.
 */
export function publishLiveEvents(events: EventBus, live: LiveBus) {
  events.on('message.sent', async ({ conversationId, senderId, recipientId }) => {
    await Promise.all([
      live.publish(recipientId, { type: 'message', conversation_id: conversationId, profile_id: senderId }),
      // The sender's other tabs show the message and the balance it cost.
      live.publish(senderId, { type: 'message', conversation_id: conversationId, profile_id: recipientId }),
      live.publish(senderId, { type: 'credits' }),
    ]);
  });
  events.on('like.created', ({ likerId, likedId, match }) => live.publish(likedId, { type: 'like', profile_id: likerId, match }));
  events.on('messages.read', ({ readerId, otherId, conversationId }) => live.publish(otherId, { type: 'read', profile_id: readerId, conversation_id: conversationId }));
  events.on('credits.changed', ({ userId }) => live.publish(userId, { type: 'credits' }));
  events.on('session.ended', ({ userId, sessionId }) => live.publish(userId, { type: 'session_ended', session: sessionId }));
}
