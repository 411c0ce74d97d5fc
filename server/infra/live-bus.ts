import type { Redis } from 'ioredis';
import type { LiveEvent } from '#common/live.ts';
import type { Logger } from './logger.ts';

export type LiveListener = (event: LiveEvent) => void;

/**
 * Carries live events addressed to one member to every instance that holds one of that member's
 * open tabs. An instance subscribes to a member while it holds a socket of theirs.
 */
export interface LiveBus {
  publish(userId: number, event: LiveEvent): Promise<void>;
  /** Returns the unsubscribe function; resolves once events published after it will arrive. */
  subscribe(userId: number, listener: LiveListener): Promise<() => void>;
  close(): Promise<void>;
}

/** Listeners per member, shared by both buses. */
function listenerRegistry() {
  const byUser = new Map<number, Set<LiveListener>>();
  return {
    /** Adds a listener; true when it is the member's first here. */
    add(userId: number, listener: LiveListener): boolean {
      const set = byUser.get(userId) ?? new Set();
      set.add(listener);
      byUser.set(userId, set);
      return set.size === 1;
    },
    /** Removes a listener; true when it was the member's last here. */
    remove(userId: number, listener: LiveListener): boolean {
      const set = byUser.get(userId);
      if (!set?.delete(listener)) return false;
      if (set.size) return false;
      byUser.delete(userId);
      return true;
    },
    deliver(userId: number, event: LiveEvent, logger: Pick<Logger, 'error'>) {
      for (const listener of byUser.get(userId) ?? []) {
        try {
          listener(event);
        } catch (error) {
          logger.error('live listener failed:', error);
        }
      }
    },
  };
}

/** One process: events go straight to this process's listeners (the embedded default). */
export function createMemoryLiveBus(logger: Pick<Logger, 'error'>): LiveBus {
  const listeners = listenerRegistry();
  return {
    async publish(userId, event) {
      listeners.deliver(userId, event, logger);
    },
    async subscribe(userId, listener) {
      listeners.add(userId, listener);
      return () => { listeners.remove(userId, listener); };
    },
    async close() {},
  };
}

/**
 * Many instances: one Redis channel per member. `publisher` is any connection; `subscriber` must be
 * a connection of its own (Redis puts a subscribing connection in a mode that runs nothing else).
 */
export function createRedisLiveBus(deps: { publisher: Redis; subscriber: Redis; prefix?: string; logger: Pick<Logger, 'error'> }): LiveBus {
  const { publisher, subscriber, logger } = deps;
  const prefix = `${deps.prefix ?? 'amora:'}live:`;
  const listeners = listenerRegistry();
  // A member's channel subscription in flight: later subscribers of that member wait for it too.
  const joining = new Map<number, Promise<unknown>>();
  subscriber.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(prefix)) return;
    const userId = Number(channel.slice(prefix.length));
    let event: LiveEvent;
    try {
      event = JSON.parse(message) as LiveEvent;
    } catch {
      return;
    }
    listeners.deliver(userId, event, logger);
  });
  return {
    async publish(userId, event) {
      try {
        await publisher.publish(`${prefix}${userId}`, JSON.stringify(event));
      } catch (error) {
        // Redis is away: this instance's own tabs still get the event; the others see it at their next poll.
        logger.error('live publish failed, delivered on this instance only:', error instanceof Error ? error.message : error);
        listeners.deliver(userId, event, logger);
      }
    },
    async subscribe(userId, listener) {
      if (listeners.add(userId, listener)) {
        const joined = subscriber.subscribe(`${prefix}${userId}`).finally(() => joining.delete(userId));
        joining.set(userId, joined);
      }
      try {
        await joining.get(userId);
      } catch (error) {
        // Redis is away: the tab is told (its socket closes) and polls until it connects again.
        listeners.remove(userId, listener);
        throw error;
      }
      return () => {
        if (listeners.remove(userId, listener)) {
          subscriber.unsubscribe(`${prefix}${userId}`).catch((error: unknown) => logger.error('live unsubscribe failed:', error));
        }
      };
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
