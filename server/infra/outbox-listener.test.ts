import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, testClock } from '../../tests/helpers/test-app.ts';
import type { Database } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { createEventBus } from './events.ts';
import { listenForOutbox } from './outbox-listener.ts';

const quiet = { error: () => {}, info: () => {} };

/**
 * A web instance records an event; a worker elsewhere, polling only every minute, delivers it at once because the
 * commit notified it. (PGlite is one process: its own commits wake it, so the listener is PostgreSQL's alone.)
 */
describe.skipIf(!inject('pgTemplate'))('outbox workers wake on LISTEN/NOTIFY (postgres)', () => {
  let database: Database & { drop(): Promise<void> };
  let url: string;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    url = (database.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
  });
  afterAll(() => database.drop());

  it('a commit on another instance is delivered promptly with a long poll interval; a rolled-back one wakes nobody', async () => {
    const clock = testClock();
    const seen: { userId: number; at: number }[] = [];
    const subscribe = (bus: ReturnType<typeof createEventBus>) => bus.durable('account.created', 'test.notify', ({ userId }) => {
      seen.push({ userId, at: performance.now() });
    });
    const web = createEventBus({ db: database.db, clock, logger: quiet });
    subscribe(web);
    const worker = createEventBus({ db: database.db, clock, logger: quiet });
    subscribe(worker);
    let wakes = 0;
    const stop = worker.start(60 * 60_000);
    const listener = listenForOutbox({ url, onWake: () => { wakes++; worker.wake(); }, logger: quiet });
    try {
      await listener.ready;
      await new Promise((r) => setTimeout(r, 100));
      const wakesBefore = wakes;
      await expect(database.db.transaction(async (tx) => {
        await web.record(tx, 'account.created', { userId: 1 });
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');
      await new Promise((r) => setTimeout(r, 300));
      expect(wakes).toBe(wakesBefore);

      // Both ways of writing outbox rows notify: record (an insert) and recordSql (part of a combined statement).
      const started = performance.now();
      await database.db.transaction((tx) => web.record(tx, 'account.created', { userId: 2 }));
      for (let i = 0; i < 40 && !seen.length; i++) await new Promise((r) => setTimeout(r, 50));
      expect(seen.map((s) => s.userId)).toEqual([2]);
      expect(seen[0].at - started).toBeLessThan(1_500);
      const again = performance.now();
      await database.db.execute(sql`with m as (select 3 as id), rows as (${web.recordSql('account.created', sql`jsonb_build_object('userId', m.id)`, sql`m`)}) select 1`);
      for (let i = 0; i < 40 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(seen.map((s) => s.userId)).toEqual([2, 3]);
      expect(seen[1].at - again).toBeLessThan(1_500);
      expect(await database.db.select().from(outbox)).toEqual([]);
    } finally {
      stop();
      await listener.close();
    }
  });

  it('an instance that drains delivers its own rows without notifying anyone, within half a second without an emit', async () => {
    const seen: { userId: number; at: number }[] = [];
    const both = createEventBus({ db: database.db, clock: testClock(), logger: quiet });
    both.durable('account.created', 'test.own', ({ userId }) => { seen.push({ userId, at: performance.now() }); });
    const stop = both.start(60 * 60_000);
    let wakes = 0;
    const listener = listenForOutbox({ url, onWake: () => { wakes++; }, logger: quiet });
    try {
      await listener.ready;
      await new Promise((r) => setTimeout(r, 100));
      const wakesBefore = wakes;
      const delivered = async (userId: number, write: () => Promise<unknown>) => {
        const started = performance.now();
        await write();
        for (let i = 0; i < 40 && !seen.some((s) => s.userId === userId); i++) await new Promise((r) => setTimeout(r, 50));
        return (seen.find((s) => s.userId === userId)?.at ?? Infinity) - started;
      };
      // No emit follows these writes: the drain runs of itself, RECORDED_WAKE_MS after them.
      expect(await delivered(11, () => database.db.transaction((tx) => both.record(tx, 'account.created', { userId: 11 })))).toBeLessThan(1_500);
      expect(await delivered(12, () => database.db.execute(sql`with m as (select 12 as id), rows as (${both.recordSql('account.created', sql`jsonb_build_object('userId', m.id)`, sql`m`)}) select 1`))).toBeLessThan(1_500);
      // With an emit after the commit, at once.
      expect(await delivered(13, async () => {
        await database.db.transaction((tx) => both.record(tx, 'account.created', { userId: 13 }));
        both.emit('account.created', { userId: 13 });
      })).toBeLessThan(300);
      expect(wakes).toBe(wakesBefore);
      expect(await database.db.select().from(outbox)).toEqual([]);
    } finally {
      stop();
      await listener.close();
    }
  });

  it('a worker whose listening connection cannot be opened keeps polling and says why', async () => {
    const errors: string[] = [];
    const listener = listenForOutbox({ url: 'postgres://postgres@127.0.0.1:1/none', onWake: () => {}, logger: { info: () => {}, error: (m) => errors.push(m) } });
    for (let i = 0; i < 40 && !errors.length; i++) await new Promise((r) => setTimeout(r, 50));
    await listener.close();
    expect(errors[0]).toMatch(/^outbox: listening for new rows failed \(.+\); trying again in 1 s, polling meanwhile$/);
  });
});
