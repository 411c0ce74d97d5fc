import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { createAdmission, MIN_IN_FLIGHT, type Admission } from './admission.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* the event loop is blocked */ }
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('admission control', () => {
  it('admits up to the limit of requests in progress, and again once one is done', () => {
    const admission = createAdmission({ maxInFlight: 2, maxDelayMs: 0 });
    expect(admission.enter()).toBeNull();
    expect(admission.enter()).toBeNull();
    expect(admission.enter()).toBe('in_flight');
    admission.leave();
    expect(admission.enter()).toBeNull();
    expect(admission.state().inFlight).toBe(2);
    admission.stop();
  });

  it('refuses while the event loop stays late, not for one long task, and admits again once it caught up', async () => {
    const admission = createAdmission({ maxInFlight: 0, maxDelayMs: 60 });
    await pause(30);
    expect(admission.enter()).toBeNull();
    admission.leave();
    // One long task (a cold start's compilation): the average hardly moves.
    busy(300);
    await pause(15);
    expect(admission.enter()).toBeNull();
    admission.leave();
    // A loop that stays busy: each timer runs 150 ms late, for a second and a half.
    for (let i = 0; i < 10; i++) {
      busy(150);
      await pause(0);
    }
    expect(admission.state().delayMs).toBeGreaterThan(60);
    expect(admission.enter()).toBe('event_loop_delay');
    await pause(1500);
    expect(admission.enter()).toBeNull();
    admission.stop();
  });

  it('limits nothing when both limits are 0', () => {
    const admission = createAdmission({ maxInFlight: 0, maxDelayMs: 0 });
    for (let i = 0; i < 1000; i++) expect(admission.enter()).toBeNull();
    admission.stop();
  });
});

describe('an instance at its limit', () => {
  let t: TestApp;
  let admission: Admission;
  beforeAll(async () => {
    admission = createAdmission({ maxInFlight: 1, maxDelayMs: 0 });
    t = await createTestApp('pglite', { profiles: 2, admission, operations: true });
  });
  afterAll(async () => {
    admission.stop();
    await t.close();
  });

  it('answers 503 with Retry-After and the error shape in the member\'s language, changes nothing, and counts the refusal', async () => {
    const client = t.client();
    await client.login();
    const before = await t.database.db.select({ language: users.language }).from(users).where(eq(users.id, t.demoUserId));
    // One request in progress takes the only place.
    expect(admission.enter()).toBeNull();
    try {
      const refused = await client.put('/api/user.php', { language: 'de' }, { cookie: `locale=fi; ${[...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}` });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toEqual({ error: { code: 'overloaded', message: 'Juuri nyt on ruuhkaa. Yritä hetken päästä uudelleen.' } });
      expect((await client.get('/api/settings.php')).status).toBe(503);
      // Built assets are never refused (here: not found, as the API-only app has none).
      expect((await client.get('/assets/app.js')).status).not.toBe(503);
      // The probes answer whatever the load.
      expect((await client.get('/healthz')).status).toBe(200);
    } finally {
      admission.leave();
    }
    expect(await t.database.db.select({ language: users.language }).from(users).where(eq(users.id, t.demoUserId))).toEqual(before);
    expect((await client.get('/api/settings.php')).status).toBe(200);
    expect(admission.state().inFlight).toBe(0);
    const metrics = await t.operations!.metrics!.render();
    expect(metrics).toMatch(/amora_admission_refused_total\{reason="in_flight"\} 2/);
  });
});

describe('the adaptive limit', () => {
  it('admits fewer requests at once while answers are slower than the target under load, and more again once they are fast', () => {
    let clock = 0;
    const admission = createAdmission({ maxInFlight: 64, targetMs: 100, maxDelayMs: 0 }, () => clock);
    const round = (count: number, ms: number) => {
      let admitted = 0;
      for (let i = 0; i < count; i++) if (admission.enter() === null) admitted++;
      clock += 150;
      for (let i = 0; i < admitted; i++) admission.leave(ms);
      return admitted;
    };
    expect(round(40, 20)).toBe(40);
    // Slow answers with 40 at once: the limit drops by a fifth per window (the first window still holds fast ones), to the floor.
    round(40, 400);
    round(40, 400);
    expect(admission.state().limit).toBeLessThanOrEqual(32);
    for (let i = 0; i < 20; i++) round(40, 400);
    expect(admission.state().limit).toBe(MIN_IN_FLIGHT);
    expect(round(40, 400)).toBe(MIN_IN_FLIGHT);
    // Fast answers again: one more per window (of at least five answers).
    for (let i = 0; i < 6; i++) round(40, 20);
    expect(admission.state().limit).toBeGreaterThan(MIN_IN_FLIGHT);
    for (let i = 0; i < 100; i++) round(40, 20);
    expect(admission.state().limit).toBe(64);
    admission.stop();
  });

  it('does not shrink for a few slow answers of a quiet instance (uploads)', () => {
    let clock = 0;
    const admission = createAdmission({ maxInFlight: 64, targetMs: 100, maxDelayMs: 0 }, () => clock);
    for (let i = 0; i < 50; i++) {
      expect(admission.enter()).toBeNull();
      clock += 30;
      admission.leave(2000);
    }
    expect(admission.state().limit).toBe(64);
    admission.stop();
  });
});
