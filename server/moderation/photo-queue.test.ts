import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, photos } from '../db/schema.ts';
import type { StaffRoleName } from '../db/schema.ts';
import { staffActor, type StaffActor } from '../staff/staff-actor.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { CLAIM_MS, QUEUE_PAGE } from './queue-shared.ts';

const CLI = { kind: 'system', job: 'test' } as const;

describe.each(DATABASE_KINDS)('the photo queue\'s claims and pages on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const refusal = (work: Promise<unknown>) => work.then(() => null, (e: { status: number; code: string }) => `${e.status} ${e.code}`);
  let n = 0;
  const staff = async (roles: StaffRoleName[] = ['moderator'], siteIds: number[] | null = null): Promise<StaffActor> => {
    const made = await t.services.staff.create(CLI, { email: `photo${++n}.${kind}@example.com`, name: `Photo mod ${n}`, roles, siteIds });
    return staffActor(db(), { id: made.id, roles, siteIds, companyIds: null });
  };
  const photo = async (userId: number) => {
    t.clock.advance(1000);
    const key = `pq-${kind}-${++n}`;
    return (await db().insert(photos).values({ userId, filename: `${key}.webp`, thumbFilename: `${key}_t.webp`, width: 10, height: 10, createdAt: t.clock() }).returning())[0].id;
  };

  it('holds an opened photo for its moderator: another moderator\'s claim and decision are refused with item_claimed', async () => {
    const m = await signUp(t);
    const id = await photo(m.user.id);
    const [a, b] = [await staff(), await staff()];
    const { claimed_until } = await t.services.console.claimPhoto(a, { kind: 'profile', id });
    expect(claimed_until).toBe(new Date(t.clock().getTime() + CLAIM_MS).toISOString());
    expect(await refusal(t.services.console.claimPhoto(b, { kind: 'profile', id }))).toBe('409 item_claimed');
    expect(await refusal(t.services.console.moderatePhoto(b, { kind: 'profile', id, decision: 'reject' }))).toBe('409 item_claimed');
    expect((await db().select().from(photos).where(eq(photos.id, id)))[0]).toMatchObject({ reviewed: false, status: 'pending' });
    const listed = (await t.services.console.photoQueue(b)).items.find((p) => p.id === id && p.kind === 'profile');
    expect(listed).toMatchObject({ claimed_by: a.staffId, claimed_until });
    await t.services.console.moderatePhoto(a, { kind: 'profile', id, decision: 'approve' });
    expect((await db().select().from(photos).where(eq(photos.id, id)))[0]).toMatchObject({ reviewed: true, status: 'active', claimedUntil: null });
    expect(await refusal(t.services.console.claimPhoto(b, { kind: 'profile', id }))).toBe('409 photo_already_reviewed');
    const audit = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.objectId, String(id)));
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['photo.claim', 'photo.approve']));
  });

  it('lets the hold run out after ten minutes, and hides a photo of another site', async () => {
    const m = await signUp(t);
    const id = await photo(m.user.id);
    const [a, b] = [await staff(), await staff()];
    await t.services.console.claimPhoto(a, { kind: 'profile', id });
    t.clock.advance(CLAIM_MS + 1000);
    await t.services.console.claimPhoto(b, { kind: 'profile', id });
    expect(await refusal(t.services.console.moderatePhoto(a, { kind: 'profile', id, decision: 'approve' }))).toBe('409 item_claimed');
    expect(await refusal(t.services.console.claimPhoto(await staff(['moderator'], [t.siteId + 1000]), { kind: 'profile', id }))).toBe('404 not_found');
    expect(await refusal(t.services.console.claimPhoto(await staff(['support']), { kind: 'profile', id }))).toBe('403 forbidden');
  });

  it('pages past fifty photos, oldest first', async () => {
    const mod = await staff();
    await db().update(photos).set({ reviewed: true });
    const m = await signUp(t);
    for (let i = 0; i < QUEUE_PAGE + 3; i++) await photo(m.user.id);
    const first = await t.services.console.photoQueue(mod);
    expect(first).toMatchObject({ page: 1, has_more: true, counts: { open: QUEUE_PAGE + 3 } });
    expect(first.items).toHaveLength(QUEUE_PAGE);
    const second = await t.services.console.photoQueue(mod, 2);
    expect(second).toMatchObject({ page: 2, has_more: false });
    expect(second.items).toHaveLength(3);
    const all = [...first.items, ...second.items];
    expect(all.map((p) => p.created_at)).toEqual(all.map((p) => p.created_at).sort());
    expect(new Set(all.map((p) => p.id)).size).toBe(QUEUE_PAGE + 3);
    expect((await t.services.console.queueCounts(mod)).photos).toBe(QUEUE_PAGE + 3);
  });
});
