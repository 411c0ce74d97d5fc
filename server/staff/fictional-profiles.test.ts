import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffActor } from '../actor.ts';
import { auditLog, profiles, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('fictional profiles made by staff on %s', (kind) => {
  let t: TestApp;
  let agent: StaffActor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const a = await t.services.staff.create({ kind: 'system', job: 'test' }, { email: `fict-${kind}@example.org`, name: 'Agent', roles: ['support'] });
    agent = { kind: 'staff', staffId: a.id, roles: ['support'], siteIds: [t.siteId], companyIds: null };
  });
  afterAll(() => t.close());

  const input = {
    name: 'Annika', birth_date: '1994-03-02', gender: 'female', looking_for: 'male', country: 'NL', region: '', hair_color: 'blonde', eye_color: 'blue',
    body_type: '', relationship_status: 'single', tattoos: '', signup_reason: 'flirt', about: 'Sailing and long walks.', notes: 'Works in a bakery; two sisters.',
  };
  const count = async () => (await t.database.db.select().from(profiles).where(eq(profiles.fictional, true))).length;

  it('creates a fictional profile that cannot sign in, edits it with its notes, adds a photo checked as members\' are; all audited', async () => {
    const { id } = await t.services.fictionalProfiles.create(agent, t.siteId, input, { ip: '198.51.100.7' });
    const made = await t.services.fictionalProfiles.profile(agent, id);
    expect(made).toMatchObject({ site_id: t.siteId, name: 'Annika', gender: 'female', looking_for: 'male', hair_color: 'blonde', body_type: null, notes: 'Works in a bakery; two sisters.' });
    const [row] = await t.database.db.select({ fictional: profiles.fictional, sexuality: profiles.sexuality, status: users.status, email: users.email, optOut: users.emailOptOut })
      .from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(profiles.userId, id));
    expect(row).toMatchObject({ fictional: true, sexuality: 'hetero', status: 'active', optOut: expect.arrayContaining(['new_message', 'new_like']) });
    // Nobody signs in as it, whatever the password.
    const login = await t.client().post('/api/user.php', { email: row.email, password: '!fictional' });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.status).toBeLessThan(500);
    expect((await t.services.fictionalProfiles.list(agent, t.siteId)).map((p) => p.id)).toContain(id);

    const edited = await t.services.fictionalProfiles.update(agent, id, { ...input, name: 'Annika B', looking_for: 'both', notes: 'Now also a dog.' });
    expect(edited).toMatchObject({ name: 'Annika B', looking_for: 'both', notes: 'Now also a dog.' });
    const [change] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'fictional.update'), eq(auditLog.objectId, String(id))));
    expect(change).toMatchObject({ staffId: agent.staffId, role: 'support' });
    expect(change.before).toMatchObject({ name: 'Annika', notes: 'Works in a bakery; two sisters.' });
    expect(change.after).toMatchObject({ name: 'Annika B', notes: 'Now also a dog.' });
    const [created] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'fictional.create'), eq(auditLog.objectId, String(id))));
    expect(created).toMatchObject({ ip: '198.51.100.7', after: expect.objectContaining({ name: 'Annika' }) });

    const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#a36' } }).png().toBuffer();
    const photo = await t.services.fictionalProfiles.addPhoto(agent, id, png);
    expect((await t.services.fictionalProfiles.profile(agent, id)).photos).toEqual([expect.objectContaining({ id: photo.id, main: true })]);
    await expect(t.services.fictionalProfiles.addPhoto(agent, id, Buffer.from('<svg>not a photo</svg>'))).rejects.toMatchObject({ status: 415, code: 'photo_invalid' });
    expect((await t.services.fictionalProfiles.profile(agent, id)).photos).toHaveLength(1);
  });

  it('refuses other roles, other sites, members and bad input, changing nothing', async () => {
    const before = await count();
    for (const actor of [{ ...agent, roles: ['moderator'] }, { ...agent, roles: ['finance'] }, { ...agent, siteIds: [t.siteId + 1000] }] as StaffActor[]) {
      await expect(t.services.fictionalProfiles.create(actor, t.siteId, input)).rejects.toMatchObject({ status: 403 });
      await expect(t.services.fictionalProfiles.list(actor, t.siteId)).rejects.toMatchObject({ status: 403 });
    }
    await expect(t.services.fictionalProfiles.create({ kind: 'member', userId: t.demoUserId, siteId: t.siteId }, t.siteId, input)).rejects.toMatchObject({ status: 403 });
    for (const bad of [{ name: '' }, { birth_date: '2015-01-01' }, { birth_date: '1990-02-30' }, { gender: 'other' }, { country: 'XX' }, { hair_color: 'purple' }, { about: 'x'.repeat(3000) }]) {
      await expect(t.services.fictionalProfiles.create(agent, t.siteId, { ...input, ...bad })).rejects.toMatchObject({ status: 400 });
    }
    // A member who is not fictional is not edited from here.
    await expect(t.services.fictionalProfiles.update(agent, t.demoUserId, input)).rejects.toMatchObject({ status: 404 });
    expect(await count()).toBe(before);
  });
});
