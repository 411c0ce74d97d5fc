import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SESSION_IDLE_DAYS } from '#common/constants.ts';
import { sessions } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each(DATABASE_KINDS)('idle sessions expire, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3 });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  });

  const sessionRows = async (userId: number) => t.database.db.select().from(sessions).where(eq(sessions.userId, userId));

  it('is 7 days', () => {
    expect(SESSION_IDLE_DAYS).toBe(7);
  });

  it('a session unused for 7 days is gone; one unused a minute less still works', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    t.clock.advance(7 * DAY - MINUTE);
    expect((await a.client.get('/api/user.php')).status).toBe(200);
    t.clock.advance(MINUTE);
    expect((await b.client.get('/api/user.php')).status).toBe(403);
    expect(await sessionRows(b.user.id)).toHaveLength(0);
    // A used it a minute before the end: it counts from then.
    t.clock.advance(7 * DAY - 2 * MINUTE);
    expect((await a.client.get('/api/user.php')).status).toBe(200);
  });

  it('a session used every 6 days stays valid until the 30-day lifetime ends', async () => {
    const { client, user } = await signUp(t);
    for (let day = 6; day < 30; day += 6) {
      t.clock.advance(6 * DAY);
      expect((await client.get('/api/user.php')).status, `day ${day}`).toBe(200);
    }
    t.clock.advance(5 * DAY + 23 * HOUR); // day 29 23:00
    expect((await client.get('/api/user.php')).status).toBe(200);
    t.clock.advance(HOUR); // day 30
    expect((await client.get('/api/user.php')).status).toBe(403);
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it('last use is written at most once an hour, not on every request', async () => {
    const { client, user } = await signUp(t);
    const [created] = await sessionRows(user.id);
    expect(created.lastUsedAt.getTime()).toBe(t.clock().getTime());
    for (let i = 0; i < 5; i++) {
      t.clock.advance(10 * MINUTE);
      expect((await client.get('/api/user.php')).status).toBe(200);
    }
    expect((await sessionRows(user.id))[0].lastUsedAt.getTime()).toBe(created.lastUsedAt.getTime());
    t.clock.advance(10 * MINUTE);
    expect((await client.get('/api/user.php')).status).toBe(200);
    expect((await sessionRows(user.id))[0].lastUsedAt.getTime()).toBe(t.clock().getTime());
  });
});
