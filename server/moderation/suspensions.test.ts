import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffActor } from '../actor.ts';
import { appeals, auditLog, memberBans, moderationDecisions, sessions, users } from '../db/schema.ts';
import { createStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const DAY_MS = 86_400_000;
const PASSWORD = 'correct horse battery';

describe.each(DATABASE_KINDS)('suspending a member on %s', (kind) => {
  let t: TestApp;
  let MODERATOR: StaffActor;
  let SECOND: StaffActor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    MODERATOR = (await createStaff(t, { roles: ['moderator'] })).actor;
    SECOND = (await createStaff(t, { roles: ['moderator'] })).actor;
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const refusal = (work: Promise<unknown>) => work.then(() => 'allowed', (e: { status?: number; code?: string }) => `${e.status} ${e.code}`);
  const logIn = (email: string, password = PASSWORD) => t.client().post('/api/user.php', { email, password });
  const audits = (action: string, memberId: number) => db().$count(auditLog, and(eq(auditLog.action, action), eq(auditLog.memberId, memberId)));

  it('signs the member out, refuses their log-in saying until when, hides them, and ends by itself at the time', async () => {
    const member = await signUp(t, { name: 'Suspended' });
    const other = await signUp(t, { name: 'Onlooker' });
    expect((await other.client.get(`/api/profile.php?id=${member.user.id}`)).status).toBe(200);

    const { until } = await t.services.bans.suspend(MODERATOR, member.user.id, { days: 7, ground: 'terms_harassment', facts: 'Insults in three chats' });
    expect(until).toBe(new Date(t.clock().getTime() + 7 * DAY_MS).toISOString());
    expect(await db().$count(sessions, eq(sessions.userId, member.user.id))).toBe(0);
    expect((await member.client.get('/api/user.php')).status).toBe(403);
    expect(await audits('member.suspend', member.user.id)).toBe(1);
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.memberId, member.user.id));
    expect(decision).toMatchObject({ restriction: 'suspended', ground: 'terms_harassment', facts: 'Insults in three chats', staffId: MODERATOR.staffId, status: 'in_force' });
    expect(decision.suspendedUntil?.toISOString()).toBe(until);

    // Log-in: the right password learns until when (in the member's language); a wrong one learns nothing.
    const refused = await logIn(member.user.email);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'account_suspended']);
    expect(refused.body.error.message).toContain('until 8 June 2026 at 12:00 UTC');
    expect((await logIn(member.user.email, 'wrong horse battery')).body.error.code).toBe('login_failed');

    // Hidden as a banned member is: no profile, no message, no like, not in search.
    expect((await other.client.get(`/api/profile.php?id=${member.user.id}`)).status).toBe(404);
    expect((await other.client.post('/api/messages.php', { profile_id: member.user.id, text: 'Hello?' }, { 'idempotency-key': `suspended-msg-${member.user.id}` })).status).toBe(404);
    expect((await other.client.post('/api/like.php', { profile_id: member.user.id })).status).toBe(404);
    const found = (await other.client.get('/api/members.php?gender=female')).body.profiles as { id: number }[];
    expect(found.map((p) => p.id)).not.toContain(member.user.id);

    // At the time it ends by itself: nothing lifted it, the clock passed it.
    t.clock.advance(7 * DAY_MS);
    expect((await logIn(member.user.email)).status).toBe(200);
    expect((await other.client.get(`/api/profile.php?id=${member.user.id}`)).status).toBe(200);
    const again = (await other.client.get('/api/members.php?gender=female')).body.profiles as { id: number }[];
    expect(again.map((p) => p.id)).toContain(member.user.id);
  });

  it('checks the days, the ground and the facts, and changes nothing on bad input', async () => {
    const member = await signUp(t);
    const input = { days: 3, ground: 'terms_spam' as const, facts: 'Same text to forty members' };
    expect(await refusal(t.services.bans.suspend(MODERATOR, member.user.id, { ...input, days: 0 }))).toBe('400 invalid_input');
    expect(await refusal(t.services.bans.suspend(MODERATOR, member.user.id, { ...input, days: 366 }))).toBe('400 invalid_input');
    expect(await refusal(t.services.bans.suspend(MODERATOR, member.user.id, { ...input, days: 1.5 }))).toBe('400 invalid_input');
    expect(await refusal(t.services.bans.suspend(MODERATOR, member.user.id, { ...input, ground: 'nope' as never }))).toBe('400 invalid_input');
    expect(await refusal(t.services.bans.suspend(MODERATOR, member.user.id, { ...input, facts: ' ' }))).toBe('400 reason_required');
    expect(await refusal(t.services.bans.suspend(MODERATOR, 2_000_000_000, input))).toBe('404 not_found');
    expect(await refusal(t.services.bans.endSuspension(MODERATOR, member.user.id, 'not running'))).toBe('409 member_not_suspended');
    await t.services.bans.ban(MODERATOR, member.user.id, 'abuse', 'threats');
    expect(await refusal(t.services.bans.suspend(MODERATOR, member.user.id, input))).toBe('409 member_banned');
    const [row] = await db().select({ until: users.suspendedUntil }).from(users).where(eq(users.id, member.user.id));
    expect(row.until).toBeNull();
    expect(await db().$count(moderationDecisions, and(eq(moderationDecisions.memberId, member.user.id), eq(moderationDecisions.restriction, 'suspended')))).toBe(0);
    await db().delete(memberBans).where(eq(memberBans.userId, member.user.id));
  });

  it('ends early from the console, audited; an upheld appeal lifts it, decided by another moderator', async () => {
    const member = await signUp(t);
    await t.services.console.suspendMember(MODERATOR, member.user.id, { days: 30, ground: 'terms_spam', facts: 'Links to another site' });
    await t.services.console.endSuspension(MODERATOR, member.user.id, 'Settled with the member');
    expect((await logIn(member.user.email)).status).toBe(200);
    const [ended] = await db().select().from(auditLog).where(and(eq(auditLog.action, 'member.end_suspension'), eq(auditLog.memberId, member.user.id)));
    expect(ended).toMatchObject({ staffId: MODERATOR.staffId, after: { suspended_until: null, note: 'Settled with the member' } });

    // Suspended again; the member appeals through the statement's link, a second moderator upholds it.
    await t.services.bans.suspend(MODERATOR, member.user.id, { days: 10, ground: 'terms_general', facts: 'Rude to staff' });
    const [decision] = await db().select().from(moderationDecisions)
      .where(and(eq(moderationDecisions.memberId, member.user.id), eq(moderationDecisions.suspendedUntil, new Date(t.clock().getTime() + 10 * DAY_MS))));
    const visitor = { kind: 'visitor' as const, siteId: t.siteId };
    expect(await t.services.statements.view(visitor, decision.id, decision.token)).toMatchObject({ restriction: 'suspended', can_appeal: true });
    await t.services.statements.appeal(visitor, decision.id, decision.token, { text: 'It was a misunderstanding, please look again.' });
    const [appeal] = await db().select().from(appeals).where(eq(appeals.decisionId, decision.id));
    expect(await refusal(t.services.moderation.claimAppeal(MODERATOR, appeal.id))).toBe('403 appeal_same_moderator');
    await t.services.moderation.claimAppeal(SECOND, appeal.id);
    expect((await logIn(member.user.email)).body.error.code).toBe('account_suspended');
    await t.services.moderation.decideAppeal(SECOND, appeal.id, { outcome: 'reversed' });
    expect((await db().select({ until: users.suspendedUntil }).from(users).where(eq(users.id, member.user.id)))[0].until).toBeNull();
    expect((await logIn(member.user.email)).status).toBe(200);
  });
});
