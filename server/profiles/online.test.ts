import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACTIVE_STEP_MS, ONLINE_MINUTES } from '#common/constants.ts';
import { users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

type Summary = { id: number; online: boolean };

describe.each(DATABASE_KINDS)('online state on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  const lastActive = async (id: number) =>
    (await t.database.db.select({ at: users.lastActiveAt }).from(users).where(eq(users.id, id)))[0].at;

  it('shows a member online for a few minutes after their last request, in search and on the profile, never while invisible', async () => {
    const viewer = await signUp(t, { gender: 'male' });
    const member = await signUp(t, { date_of_birth: '1971-02-02' });
    const seen = async () => {
      const search = (await viewer.client.get<{ profiles: Summary[] }>('/api/members.php?min_age=55&max_age=55')).body.profiles;
      const { profile } = (await viewer.client.get<{ profile: Summary }>(`/api/profile.php?id=${member.user.id}`)).body;
      return { search: search.find((p) => p.id === member.user.id)?.online, profile: profile.online };
    };
    // Signing up was activity: online now.
    expect(await seen()).toEqual({ search: true, profile: true });

    // Minutes without a request: offline.
    t.clock.advance(ONLINE_MINUTES * 60_000);
    expect(await seen()).toEqual({ search: false, profile: false });

    // Any signed-in request marks the member active again: online.
    expect((await member.client.get('/api/user.php')).status).toBe(200);
    expect(await seen()).toEqual({ search: true, profile: true });

    // Invisible members are never shown online (they do not appear in search at all).
    await t.database.db.update(users).set({ invisible: true }).where(eq(users.id, member.user.id));
    expect((await seen()).profile).toBe(false);
    await t.database.db.update(users).set({ invisible: false }).where(eq(users.id, member.user.id));
  });

  it('writes the activity at most once a minute, however many requests come', async () => {
    const member = await signUp(t);
    t.clock.advance(ACTIVE_STEP_MS);
    await member.client.get('/api/user.php');
    const first = await lastActive(member.user.id);
    expect(first?.getTime()).toBe(t.clock().getTime());
    t.clock.advance(ACTIVE_STEP_MS - 1);
    await Promise.all([member.client.get('/api/user.php'), member.client.get('/api/user.php')]);
    expect((await lastActive(member.user.id))?.getTime()).toBe(first?.getTime());
    t.clock.advance(1);
    await member.client.get('/api/user.php');
    expect((await lastActive(member.user.id))?.getTime()).toBe(t.clock().getTime());
  });
});
