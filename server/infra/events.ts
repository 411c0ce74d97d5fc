import type { Logger } from './logger.ts';

/** What happened, for whoever wants to react (notification mails, push, live updates). */
export interface AppEvents {
  'message.sent': { messageId: number; conversationId: number; senderId: number; recipientId: number; text: string };
  'like.created': { likerId: number; likedId: number; match: boolean };
  /** A new account (sign-up); its activation mail goes out in reaction. */
  'account.created': { userId: number };
  /** A member opened a conversation and saw the other member's messages (both show read receipts). */
  'messages.read': { readerId: number; otherId: number; conversationId: number };
  /** A balance or premium state changed outside a message (a purchase was booked). */
  'credits.changed': { userId: number };
  /** A session ended by log-out (sessionId is the stored, hashed id): its live sockets close. */
  'session.ended': { userId: number; sessionId: string };
}

type Handler<K extends keyof AppEvents> = (payload: AppEvents[K]) => Promise<void> | void;

/**
 * An in-process event bus. Handlers run after the emitting transaction has committed; a failing
 * handler is logged and never fails the request that emitted the event.
 */
export function createEventBus(logger: Pick<Logger, 'error'>) {
  const handlers = new Map<keyof AppEvents, Handler<never>[]>();
  const pending = new Set<Promise<void>>();
  return {
    on<K extends keyof AppEvents>(event: K, handler: Handler<K>) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler as Handler<never>]);
    },
    emit<K extends keyof AppEvents>(event: K, payload: AppEvents[K]) {
      for (const handler of handlers.get(event) ?? []) {
        const run = (async () => {
          try {
            await (handler as Handler<K>)(payload);
          } catch (error) {
            logger.error(`event ${event} handler failed:`, error);
          }
        })();
        pending.add(run);
        void run.finally(() => pending.delete(run));
      }
    },
    /** Waits for running handlers, also those they start in turn (tests). */
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    /** Handlers still running: mail and push that a committed change still owes someone. */
    get pending() {
      return pending.size;
    },
    /**
     * Shutdown: waits for running handlers, at most `timeoutMs`. Resolves with how many were still
     * running when the time was up (0 when every handler finished).
     */
    async drain(timeoutMs: number): Promise<number> {
      let timer: NodeJS.Timeout | undefined;
      const timeUp = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
      try {
        await Promise.race([this.settle(), timeUp]);
      } finally {
        clearTimeout(timer);
      }
      return pending.size;
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
