import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks } from '../db/schema.ts';
import type { AppEvents } from '../infra/events.ts';
import { addCredits } from '../credits/ledger.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('blocks and events on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  it('hides a blocker from the blocked member, both ways, as plain 404s', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, b.user.id, 20, 'demo_grant', `g${b.user.id}`));
    await t.database.db.insert(blocks).values({ blockerId: a.user.id, blockedId: b.user.id });
    const profile = await b.client.get(`/api/profile.php?id=${a.user.id}`);
    expect(profile.status).toBe(404);
    expect(profile.body.error.code).toBe('not_found');
    // The blocker may still open the profile, only to unblock: it is marked as blocked.
    expect((await a.client.get(`/api/profile.php?id=${b.user.id}`)).body.profile).toMatchObject({ id: b.user.id, blocked: true });
    for (const [client, other] of [[b.client, a.user.id], [a.client, b.user.id]] as const) {
      expect((await client.post('/api/like.php', { profile_id: other })).status).toBe(404);
    }
    const sent = await b.client.post('/api/messages.php', { profile_id: a.user.id, text: 'hi' }, { 'idempotency-key': 'blocked-msg-01' });
    expect(sent.status).toBe(404);
    expect((await b.client.get('/api/user.php')).body.user.credits).toBe(20);
  });

  it('emits one event per new like and per message, none for retries', async () => {
    const seen: { event: keyof AppEvents; payload: unknown }[] = [];
    t.services.events.on('like.created', (p) => void seen.push({ event: 'like.created', payload: p }));
    t.services.events.on('message.sent', (p) => void seen.push({ event: 'message.sent', payload: p }));
    const a = await signUp(t);
    const b = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, a.user.id, 20, 'demo_grant', `g${a.user.id}`));
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await a.client.post('/api/like.php', { profile_id: b.user.id });
    await b.client.post('/api/like.php', { profile_id: a.user.id });
    for (let i = 0; i < 3; i++) await a.client.post('/api/messages.php', { profile_id: b.user.id, text: 'hello' }, { 'idempotency-key': 'event-msg-0001' });
    await t.services.events.settle();
    expect(seen.map((s) => s.event)).toEqual(['like.created', 'like.created', 'message.sent']);
    expect(seen[1].payload).toEqual({ likerId: b.user.id, likedId: a.user.id, match: true });
    expect(seen[2].payload).toMatchObject({ senderId: a.user.id, recipientId: b.user.id, text: 'hello' });
  });
});
