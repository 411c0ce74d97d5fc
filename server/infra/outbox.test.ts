import { spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { outbox, users } from '../db/schema.ts';
import { ROOT_DIR } from '../paths.ts';
import { hourSlot, runOncePerSlot } from '../jobs/schedule.ts';
import { createEventBus, OUTBOX_LEASE_MS, OUTBOX_MAX_ATTEMPTS } from './events.ts';
import { clonePostgresTemplate, createTestApp, DATABASE_KINDS, signUp, testClock, type TestApp } from '../../tests/helpers/test-app.ts';

const quiet = { error: () => {} };

describe.each(DATABASE_KINDS)('outbox and scheduled jobs on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, outbox: true });
  });
  afterAll(() => t.close());
  const db = () => t.database.db;
  const rows = () => db().select().from(outbox);
  const clear = () => db().delete(outbox);

  it('rows are written with the change, or not at all', async () => {
    await clear();
    const clock = testClock();
    const bus = createEventBus({ db: db(), clock, logger: quiet });
    bus.durable('account.created', 'test.a', () => {});
    await expect(db().transaction(async (tx) => {
      await bus.record(tx, 'account.created', { userId: 1 });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(await rows()).toEqual([]);
    await db().transaction((tx) => bus.record(tx, 'account.created', { userId: 2 }));
    expect((await rows()).map((r) => [r.event, r.subscriber, r.payload])).toEqual([['account.created', 'test.a', { userId: 2 }]]);
    await clear();
  });

  it('two instances draining one table run each row once', async () => {
    await clear();
    const clock = testClock();
    const seen: number[] = [];
    const make = () => {
      const bus = createEventBus({ db: db(), clock, logger: quiet });
      bus.durable('account.created', 'test.count', async ({ userId }) => {
        seen.push(userId);
        await new Promise((r) => setTimeout(r, 2));
      });
      return bus;
    };
    const [a, b] = [make(), make()];
    for (let i = 1; i <= 60; i++) await db().transaction((tx) => a.record(tx, 'account.created', { userId: i }));
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await rows()).toEqual([]);
  });

  it('a failing subscriber is retried alone with back-off, then given up and kept', async () => {
    await clear();
    const clock = testClock();
    const bus = createEventBus({ db: db(), clock, logger: quiet });
    let good = 0;
    let bad = 0;
    bus.durable('like.created', 'test.good', () => { good++; });
    bus.durable('like.created', 'test.bad', () => { bad++; throw new Error('smtp down'); });
    await db().transaction((tx) => bus.record(tx, 'like.created', { likerId: 1, likedId: 2, match: false }));
    await bus.drain();
    expect([good, bad]).toEqual([1, 1]);
    // Not due again before its back-off.
    await bus.drain();
    expect(bad).toBe(1);
    for (let i = 2; i <= OUTBOX_MAX_ATTEMPTS; i++) {
      clock.advance(3_600_000);
      await bus.drain();
    }
    expect([good, bad]).toEqual([1, OUTBOX_MAX_ATTEMPTS]);
    const [row] = await rows();
    expect(row).toMatchObject({ subscriber: 'test.bad', dead: true, attempts: OUTBOX_MAX_ATTEMPTS, lastError: 'smtp down' });
    clock.advance(3_600_000);
    await bus.drain();
    expect(bad).toBe(OUTBOX_MAX_ATTEMPTS);
    await clear();
  });

  it('a message commits with its mail owed; the drain delivers it once', async () => {
    await clear();
    const a = await signUp(t);
    const b = await signUp(t);
    await t.services.events.settle();
    await db().update(users).set({ credits: 10 }).where(eq(users.id, a.user.id));
    const res = await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'Hello' }, { 'idempotency-key': 'outbox-msg-0001' });
    expect(res.status).toBe(201);
    await t.services.events.settle();
    expect(await rows()).toEqual([]);
    expect(t.outbox!.list().filter((m) => m.to === b.user.email && m.kind === 'new_message')).toHaveLength(1);
  });

  it('a scheduled job runs once per slot across instances', async () => {
    const now = new Date('2026-06-01T10:15:00Z');
    let runs = 0;
    const job = () => runOncePerSlot(db(), `test-purge-${kind}`, hourSlot(now), now, async () => { runs++; });
    expect((await Promise.all([job(), job(), job()])).filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    const later = new Date('2026-06-01T11:00:00Z');
    expect(await runOncePerSlot(db(), `test-purge-${kind}`, hourSlot(later), later, async () => { runs++; })).toBe(true);
    expect(runs).toBe(2);
  });
});

describe.skipIf(!inject('pgTemplate'))('outbox: a worker killed mid-drain (postgres)', () => {
  let database: Database;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await clonePostgresTemplate());
    database = await openDatabase({ url });
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('loses nothing and duplicates nothing: another worker takes the row over when its lease ends', async () => {
    const start = '2026-06-01T12:00:00.000Z';
    const clock = testClock(start);
    const delivered: number[] = [];
    const bus = createEventBus({ db: database.db, clock, logger: quiet });
    bus.durable('account.created', 'test.mail', ({ userId }) => { delivered.push(userId); });
    await database.db.transaction((tx) => bus.record(tx, 'account.created', { userId: 42 }));

    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/outbox-crash-worker.ts', url, start], { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('claimed')) resolve(); });
      child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // Claimed by the dead worker: nobody else runs it while its lease holds…
    const [held] = await database.db.select().from(outbox);
    expect(held).toMatchObject({ attempts: 1, dead: false });
    await bus.drain();
    expect(delivered).toEqual([]);
    // …and once it has ended, the row is delivered, once.
    clock.advance(OUTBOX_LEASE_MS + 1);
    await bus.drain();
    await bus.drain();
    expect(delivered).toEqual([42]);
    expect(await database.db.select().from(outbox)).toEqual([]);
  }, 30_000);
});
