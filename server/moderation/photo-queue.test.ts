import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, photos } from '../db/schema.ts';
import { queueTestApp } from '../../tests/helpers/queue-test-app.ts';
import { refusal } from '../../tests/helpers/refusal.ts';
import { DATABASE_KINDS, signUp } from '../../tests/helpers/test-app.ts';
import { CLAIM_MS, QUEUE_PAGE } from './queue-shared.ts';

describe.each(DATABASE_KINDS)('the photo queue\'s claims and pages on %s', (kind) => {
  const q = queueTestApp(kind, 'photo');

  let n = 0;
  const photo = async (userId: number) => {
    q.t.clock.advance(1000);
    const key = `pq-${kind}-${++n}`;
    return (await q.db().insert(photos).values({ userId, filename: `${key}.webp`, thumbFilename: `${key}_t.webp`, width: 10, height: 10, createdAt: q.t.clock() }).returning())[0].id;
  };

  it('holds an opened photo for its moderator: another moderator\'s claim and decision are refused with item_claimed', async () => {
    const m = await signUp(q.t);
    const id = await photo(m.user.id);
    const [a, b] = [await q.staff(), await q.staff()];
    const { claimed_until } = await q.t.services.console.claimPhoto(a, { kind: 'profile', id });
    expect(claimed_until).toBe(new Date(q.t.clock().getTime() + CLAIM_MS).toISOString());
    expect(await refusal(q.t.services.console.claimPhoto(b, { kind: 'profile', id }))).toBe('409 item_claimed');
    expect(await refusal(q.t.services.console.moderatePhoto(b, { kind: 'profile', id, decision: 'reject' }))).toBe('409 item_claimed');
    expect((await q.db().select().from(photos).where(eq(photos.id, id)))[0]).toMatchObject({ reviewed: false, status: 'pending' });
    const listed = (await q.t.services.console.photoQueue(b)).items.find((p) => p.id === id && p.kind === 'profile');
    expect(listed).toMatchObject({ claimed_by: a.staffId, claimed_until });
    await q.t.services.console.moderatePhoto(a, { kind: 'profile', id, decision: 'approve' });
    expect((await q.db().select().from(photos).where(eq(photos.id, id)))[0]).toMatchObject({ reviewed: true, status: 'active', claimedUntil: null });
    expect(await refusal(q.t.services.console.claimPhoto(b, { kind: 'profile', id }))).toBe('409 photo_already_reviewed');
    const audit = await q.db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.objectId, String(id)));
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['photo.claim', 'photo.approve']));
  });

  it('lets the hold run out after ten minutes, and hides a photo of another site', async () => {
    const m = await signUp(q.t);
    const id = await photo(m.user.id);
    const [a, b] = [await q.staff(), await q.staff()];
    await q.t.services.console.claimPhoto(a, { kind: 'profile', id });
    q.t.clock.advance(CLAIM_MS + 1000);
    await q.t.services.console.claimPhoto(b, { kind: 'profile', id });
    expect(await refusal(q.t.services.console.moderatePhoto(a, { kind: 'profile', id, decision: 'approve' }))).toBe('409 item_claimed');
    expect(await refusal(q.t.services.console.claimPhoto(await q.staff(['moderator'], [q.t.siteId + 1000]), { kind: 'profile', id }))).toBe('404 not_found');
    expect(await refusal(q.t.services.console.claimPhoto(await q.staff(['support']), { kind: 'profile', id }))).toBe('403 forbidden');
  });

  it('pages past fifty photos, oldest first', async () => {
    const mod = await q.staff();
    await q.db().update(photos).set({ reviewed: true });
    const m = await signUp(q.t);
    for (let i = 0; i < QUEUE_PAGE + 3; i++) await photo(m.user.id);
    const first = await q.t.services.console.photoQueue(mod);
    expect(first).toMatchObject({ page: 1, has_more: true, counts: { open: QUEUE_PAGE + 3 } });
    expect(first.items).toHaveLength(QUEUE_PAGE);
    const second = await q.t.services.console.photoQueue(mod, 2);
    expect(second).toMatchObject({ page: 2, has_more: false });
    expect(second.items).toHaveLength(3);
    const all = [...first.items, ...second.items];
    expect(all.map((p) => p.created_at)).toEqual(all.map((p) => p.created_at).sort());
    expect(new Set(all.map((p) => p.id)).size).toBe(QUEUE_PAGE + 3);
    expect((await q.t.services.console.queueCounts(mod)).photos).toBe(QUEUE_PAGE + 3);
  });
});
