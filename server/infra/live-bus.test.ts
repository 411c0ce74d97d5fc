import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { LiveEvent } from '#common/live.ts';
import { createMemoryLiveBus, createRedisLiveBus, type LiveBus } from './live-bus.ts';

const logger = { error: () => {} };
const REDIS_URL = inject('redisUrl');
const connections: Redis[] = [];
const redis = () => {
  const r = new Redis(REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
  connections.push(r);
  return r;
};
afterAll(() => { for (const r of connections) r.disconnect(); });

/** Collects what a listener receives; `next()` waits for the following event. */
function inbox() {
  const events: LiveEvent[] = [];
  const waiting: ((e: LiveEvent) => void)[] = [];
  return {
    events,
    listener: (e: LiveEvent) => {
      events.push(e);
      waiting.shift()?.(e);
    },
    next: () => new Promise<LiveEvent>((resolve, reject) => {
      waiting.push(resolve);
      setTimeout(() => reject(new Error('no event within 2 s')), 2000);
    }),
  };
}

/** Two buses that stand for two instances: in memory they are one process, on Redis two connections. */
const kinds: [string, () => [LiveBus, LiveBus]][] = [
  ['memory', () => { const bus = createMemoryLiveBus(logger); return [bus, bus]; }],
  ['redis', () => {
    const prefix = `test:${randomUUID()}:`;
    return [
      createRedisLiveBus({ publisher: redis(), subscriber: redis(), prefix, logger }),
      createRedisLiveBus({ publisher: redis(), subscriber: redis(), prefix, logger }),
    ];
  }],
].filter(([name]) => name === 'memory' || REDIS_URL !== null) as [string, () => [LiveBus, LiveBus]][];

describe.each(kinds)('live bus (%s)', (_name, make) => {
  it('delivers an event to every listener of the member, on any instance, and to no one else', async () => {
    const [a, b] = make();
    const tab1 = inbox();
    const tab2 = inbox();
    const other = inbox();
    await a.subscribe(1, tab1.listener);
    await b.subscribe(1, tab2.listener);
    await b.subscribe(2, other.listener);
    const arrived = Promise.all([tab1.next(), tab2.next()]);
    await a.publish(1, { type: 'like', profile_id: 7, match: false });
    expect(await arrived).toEqual([{ type: 'like', profile_id: 7, match: false }, { type: 'like', profile_id: 7, match: false }]);
    // Events reach an instance in the order they were published: once the next one for member 2 is there,
    // an earlier one would have been too.
    const marker = other.next();
    await a.publish(2, { type: 'credits' });
    await marker;
    expect(other.events).toEqual([{ type: 'credits' }]);
  });

  it('stops delivering after unsubscribe, and keeps delivering to the member\'s other tabs', async () => {
    const [a, b] = make();
    const gone = inbox();
    const kept = inbox();
    const unsubscribe = await b.subscribe(3, gone.listener);
    await b.subscribe(3, kept.listener);
    unsubscribe();
    const next = kept.next();
    await a.publish(3, { type: 'credits' });
    // One event reaches a member's tabs on an instance together: the kept tab has it, the gone one would too.
    expect(await next).toEqual({ type: 'credits' });
    expect(gone.events).toEqual([]);
  });

  it('a failing listener does not keep the event from the others', async () => {
    const [a, b] = make();
    const kept = inbox();
    await b.subscribe(4, () => { throw new Error('broken tab'); });
    await b.subscribe(4, kept.listener);
    const next = kept.next();
    await a.publish(4, { type: 'credits' });
    expect(await next).toEqual({ type: 'credits' });
  });
});

describe.skipIf(REDIS_URL === null)('live bus (redis channels)', () => {
  it('an instance holds a member\'s channel only while one of their tabs listens there', async () => {
    const prefix = `test:${randomUUID()}:`;
    const watcher = redis();
    const bus = createRedisLiveBus({ publisher: redis(), subscriber: redis(), prefix, logger });
    const channels = async () => (await watcher.pubsub('CHANNELS', `${prefix}*`)) as string[];
    const tab = inbox();
    const off1 = await bus.subscribe(9, () => {});
    const off2 = await bus.subscribe(9, tab.listener);
    expect(await channels()).toEqual([`${prefix}live:9`]);
    off1();
    // The other tab still hears the channel: an event published now reaches it.
    const next = tab.next();
    await bus.publish(9, { type: 'credits' });
    expect(await next).toEqual({ type: 'credits' });
    expect(await channels()).toEqual([`${prefix}live:9`]);
    off2();
    await expect.poll(channels).toEqual([]);
  });
});
