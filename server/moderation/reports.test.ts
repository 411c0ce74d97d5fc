import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../actor.ts';
import { addCredits } from '../credits/ledger.ts';
import {
  appeals, auditLog, blocks, chatPhotos, memberBans, memberReports, messages, moderationDecisions, notices, photos, profiles, users,
} from '../db/schema.ts';
import type { OutgoingMail } from '../infra/mail/transport.ts';
import { staffActor, type StaffActor } from '../staff/staff-actor.ts';
import type { StaffRoleName } from '../db/schema.ts';
import { addOtherSite } from '../../tests/helpers/other-site.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { CLAIM_MS } from './moderation-queue.ts';

const CLI = { kind: 'system', job: 'test' } as const;
const DAY = 86_400_000;

describe.each(DATABASE_KINDS)('member reports, statements of reasons and appeals on %s', (kind) => {
  let t: TestApp;
  let otherSiteId: number;
  let otherSiteUserId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    ({ siteId: otherSiteId, userId: otherSiteUserId } = await addOtherSite(t.database.db));
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const sent = () => (t.services.mail.mailer as unknown as { sent: OutgoingMail[] }).sent;
  const refusal = (work: Promise<unknown>) => work.then(
    () => null,
    (e: { status: number; code: string }) => `${e.status} ${e.code}`,
  );
  let staffCount = 0;
  const staff = async (roles: StaffRoleName[], siteIds: number[] | null = null): Promise<StaffActor> => {
    const made = await t.services.staff.create(CLI, { email: `mod${++staffCount}.${kind}@example.com`, name: `Mod ${staffCount}`, roles, siteIds });
    return staffActor(db(), { id: made.id, roles, siteIds, companyIds: null });
  };
  let keys = 0;
  const message = async (from: Awaited<ReturnType<typeof signUp>>, to: number, text: string) => {
    await db().transaction((tx) => addCredits(tx, from.user.id, 50, 'demo_grant', `rep-grant-${kind}-${++keys}`));
    const res = await from.client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': `rep-msg-${kind}-${++keys}-key` });
    expect(res.status).toBe(201);
    return res.body.message.id as number;
  };
  const photo = async (userId: number) => (await db().insert(photos).values({
    userId, filename: `r${userId}-${++keys}.webp`, thumbFilename: `r${userId}-${keys}_t.webp`, status: 'active', width: 600, height: 800,
  }).returning())[0].id;
  const reportCount = () => db().$count(memberReports);

  it('takes a report of a profile, answers a repeat with the same report, and blocks when asked', async () => {
    const a = await signUp(t, { name: 'Anna' });
    const b = await signUp(t, { name: 'Bert' });
    const first = await t.services.reports.report(a.actor, { profile_id: b.user.id, kind: 'profile', reason: 'fake', text: 'Stock photos', block: true });
    expect(first).toMatchObject({ existing: false, blocked: true, report: { profile_id: b.user.id, profile_name: 'Bert', kind: 'profile', reason: 'fake', status: 'open', content_id: null } });
    expect(await db().$count(blocks, and(eq(blocks.blockerId, a.user.id), eq(blocks.blockedId, b.user.id)))).toBe(1);
    const before = await reportCount();
    const again = await t.services.reports.report(a.actor, { profile_id: b.user.id, kind: 'profile', reason: 'scam' });
    expect(again).toMatchObject({ existing: true, report: { id: first.report.id, reason: 'fake' } });
    expect(await reportCount()).toBe(before);
    expect((await t.services.reports.mine(a.actor)).map((r) => r.id)).toEqual([first.report.id]);
    expect(await t.services.reports.mine(b.actor)).toEqual([]);
  });

  it('refuses reporting yourself, unknown and other-site members, foreign messages and photos, and visitors, changing nothing', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const c = await signUp(t);
    const fromB = await message(b, c.user.id, 'Hello Carla');
    const photoOfC = await photo(c.user.id);
    const before = await reportCount();
    const r = (input: Record<string, unknown>, actor: Actor = a.actor) => refusal(t.services.reports.report(actor, input as never));
    expect(await r({ profile_id: a.user.id, kind: 'profile', reason: 'fake' })).toBe('400 cannot_report_self');
    expect(await r({ profile_id: 999_999, kind: 'profile', reason: 'fake' })).toBe('404 not_found');
    expect(await r({ profile_id: otherSiteUserId, kind: 'profile', reason: 'fake' })).toBe('404 not_found');
    // A message of a conversation that is not the reporter's, or not sent by the reported member.
    expect(await r({ profile_id: b.user.id, kind: 'message', content_id: fromB, reason: 'harassment' })).toBe('400 report_content_not_found');
    expect(await r({ profile_id: b.user.id, kind: 'message', content_id: fromB, reason: 'harassment' }, b.actor)).toBe('400 cannot_report_self');
    expect(await r({ profile_id: c.user.id, kind: 'message', content_id: fromB, reason: 'harassment' }, c.actor)).toBe('400 cannot_report_self');
    // A photo that is not the reported member's.
    expect(await r({ profile_id: b.user.id, kind: 'photo', content_id: photoOfC, reason: 'sexual' })).toBe('400 report_content_not_found');
    expect(await r({ profile_id: b.user.id, kind: 'photo', reason: 'sexual' })).toBe('400 report_content_not_found');
    // Bad input.
    expect(await r({ profile_id: b.user.id, kind: 'profile', reason: 'boring' })).toBe('400 report_reason_required');
    expect(await r({ profile_id: b.user.id, kind: 'video', reason: 'fake' })).toBe('400 report_kind_required');
    expect(await r({ profile_id: b.user.id, kind: 'profile', reason: 'fake', text: 'x'.repeat(1001) })).toBe('400 report_text_too_long');
    expect(await r({ profile_id: b.user.id, kind: 'profile', reason: 'fake' }, { kind: 'visitor', siteId: t.siteId })).toBe('403 authentication_required');
    expect(await reportCount()).toBe(before);
    // The recipient may report the message; so may a member report a photo of the reported member.
    expect((await t.services.reports.report(c.actor, { profile_id: b.user.id, kind: 'message', content_id: fromB, reason: 'harassment' })).existing).toBe(false);
    expect((await t.services.reports.report(a.actor, { profile_id: c.user.id, kind: 'photo', content_id: photoOfC, reason: 'sexual' })).existing).toBe(false);
  });

  it('limits how many reports a member makes in a day', async () => {
    const a = await signUp(t);
    const targets = [];
    for (let i = 0; i < 21; i++) targets.push(await signUp(t));
    for (const target of targets.slice(0, 20)) await t.services.reports.report(a.actor, { profile_id: target.user.id, kind: 'profile', reason: 'spam' });
    const before = await reportCount();
    expect(await refusal(t.services.reports.report(a.actor, { profile_id: targets[20].user.id, kind: 'profile', reason: 'spam' }))).toBe('429 too_many_requests');
    expect(await reportCount()).toBe(before);
  });

  it('lets one of two moderators claim a report; the other gets 409; staff of other sites and other roles are refused', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const { report } = await t.services.reports.report(a.actor, { profile_id: b.user.id, kind: 'profile', reason: 'hate', text: 'Slurs in the about text' });
    const one = await staff(['moderator']);
    const two = await staff(['moderator'], [t.siteId]);
    const elsewhere = await staff(['moderator'], [otherSiteId]);
    const support = await staff(['support']);

    const queue = await t.services.moderation.reportQueue(two);
    expect(queue.items.map((i) => i.id)).toContain(report.id);
    // Oldest first.
    const times = queue.items.map((i) => i.created_at);
    expect([...times].sort()).toEqual(times);
    expect(queue.counts.open).toBeGreaterThanOrEqual(1);
    expect((await t.services.moderation.reportQueue(elsewhere)).items.map((i) => i.id)).not.toContain(report.id);
    expect(await refusal(t.services.moderation.reportQueue(support))).toBe('403 forbidden');

    const results = await Promise.allSettled([t.services.moderation.claimReport(one, report.id), t.services.moderation.claimReport(two, report.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ status: 409, code: 'item_claimed' });
    const winner = results[0].status === 'fulfilled' ? one : two;
    const loser = winner === one ? two : one;
    expect(await refusal(t.services.moderation.claimReport(elsewhere, report.id))).toBe('403 forbidden');
    expect(await refusal(t.services.moderation.decideReport(loser, report.id, { action: 'dismiss', ground: 'terms_general' }))).toBe('409 report_not_claimed');
    expect(await refusal(t.services.moderation.decideReport(support, report.id, { action: 'dismiss', ground: 'terms_general' }))).toBe('403 forbidden');
    expect((await db().select().from(memberReports).where(eq(memberReports.id, report.id)))[0].status).toBe('open');

    // After ten minutes the hold is gone and the other may take it.
    t.clock.advance(CLAIM_MS + 1000);
    await t.services.moderation.claimReport(loser, report.id);
    expect(await refusal(t.services.moderation.decideReport(winner, report.id, { action: 'dismiss', ground: 'terms_general' }))).toBe('409 report_not_claimed');
    expect(await t.services.moderation.decideReport(loser, report.id, { action: 'dismiss', ground: 'terms_general' })).toEqual({ status: 'dismissed', decision_id: null });
    expect((await t.services.reports.mine(a.actor))[0]).toMatchObject({ id: report.id, status: 'dismissed' });
    expect(await refusal(t.services.moderation.claimReport(winner, report.id))).toBe('409 report_already_decided');
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.objectType, 'member_report'), eq(auditLog.objectId, String(report.id))));
    expect(audits.map((r) => r.action).sort()).toEqual(['report.claim', 'report.claim', 'report.decide']);
  });

  it('refuses a decision that does not fit what was reported, or bad input, changing nothing', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const { report } = await t.services.reports.report(a.actor, { profile_id: b.user.id, kind: 'profile', reason: 'fake' });
    const mod = await staff(['moderator']);
    await t.services.moderation.claimReport(mod, report.id);
    const decide = (input: Record<string, unknown>) => refusal(t.services.moderation.decideReport(mod, report.id, input as never));
    expect(await decide({ action: 'remove_photo', ground: 'terms_photo_rules' })).toBe('400 action_not_for_report');
    expect(await decide({ action: 'ban', ground: 'no_such_ground' })).toBe('400 invalid_input');
    expect(await decide({ action: 'explode', ground: 'terms_general' })).toBe('400 invalid_input');
    expect(await refusal(t.services.moderation.decideReport(mod, 999_999, { action: 'dismiss', ground: 'terms_general' }))).toBe('404 not_found');
    expect((await db().select().from(memberReports).where(eq(memberReports.id, report.id)))[0].status).toBe('open');
    expect(await db().$count(moderationDecisions, eq(moderationDecisions.memberId, b.user.id))).toBe(0);
  });

  it('hides a reported message with a statement, mails it, and lets the member appeal once through the link', async () => {
    const a = await signUp(t);
    const b = await signUp(t, { name: 'Rude' });
    const messageId = await message(b, a.user.id, 'You are worthless');
    const { report } = await t.services.reports.report(a.actor, { profile_id: b.user.id, kind: 'message', content_id: messageId, reason: 'harassment' });
    const mod = await staff(['moderator']);
    await t.services.moderation.claimReport(mod, report.id, { ip: '198.51.100.7' });
    const mailsBefore = sent().length;
    const { decision_id: decisionId } = await t.services.moderation.decideReport(mod, report.id, {
      action: 'hide_message', ground: 'terms_harassment', facts: 'The message insults the recipient.',
    }, { ip: '198.51.100.7' });
    expect(decisionId).toBeTypeOf('number');
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.id, decisionId!));
    expect(decision).toMatchObject({
      memberId: b.user.id, restriction: 'message_hidden', contentKind: 'message', contentId: messageId, ground: 'terms_harassment',
      facts: 'The message insults the recipient.', automated: false, reportId: report.id, staffId: mod.staffId, status: 'in_force',
    });
    expect((await db().select().from(messages).where(eq(messages.id, messageId)))[0].removedAt).not.toBeNull();
    // Gone for both members.
    const read = await a.client.get(`/api/messages.php?profile=${b.user.id}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('worthless');
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, 'report.decide'), eq(auditLog.objectId, String(report.id))));
    expect(audit).toMatchObject({ staffId: mod.staffId, role: 'moderator', memberId: b.user.id, ip: '198.51.100.7', after: { status: 'actioned', action: 'hide_message', decision_id: decisionId } });
    expect((await t.services.reports.mine(a.actor))[0].status).toBe('actioned');

    await t.services.events.settle();
    const mail = sent().slice(mailsBefore).find((m) => m.to === b.user.email);
    expect(mail?.text).toContain(`/statements/${decisionId}?token=${decision.token}`);

    // The statement: its member signed in, or the link's token; nobody else.
    const visitor: Actor = { kind: 'visitor', siteId: t.siteId };
    expect(await t.services.statements.view(b.actor, decisionId!)).toMatchObject({ restriction: 'message_hidden', ground: 'terms_harassment', basis: 'terms', source: 'report', can_appeal: true, appeal: null });
    expect(await t.services.statements.view(visitor, decisionId!, decision.token)).toMatchObject({ id: decisionId });
    expect(await refusal(t.services.statements.view(a.actor, decisionId!))).toBe('404 not_found');
    expect(await refusal(t.services.statements.view(visitor, decisionId!, 'A'.repeat(43)))).toBe('404 not_found');
    expect(await refusal(t.services.statements.view({ kind: 'visitor', siteId: otherSiteId }, decisionId!, decision.token))).toBe('404 not_found');

    expect(await refusal(t.services.statements.appeal(visitor, decisionId!, decision.token, { text: 'short' }))).toBe('400 appeal_text_required');
    expect(await refusal(t.services.statements.appeal(a.actor, decisionId!, undefined, { text: 'I want this reversed now.' }))).toBe('404 not_found');
    expect(await db().$count(appeals)).toBe(0);
    const appealed = await t.services.statements.appeal(visitor, decisionId!, decision.token, { text: 'It was a joke between friends.' });
    expect(appealed).toMatchObject({ can_appeal: false, appeal: { status: 'open', outcome: null, text: 'It was a joke between friends.' } });
    expect(await refusal(t.services.statements.appeal(b.actor, decisionId!, undefined, { text: 'Once more, please reverse.' }))).toBe('409 appeal_already_made');

    // The deciding moderator may not decide the appeal; another may, and reverses it: the message is back.
    const [appeal] = await db().select().from(appeals).where(eq(appeals.decisionId, decisionId!));
    expect((await t.services.moderation.appealQueue(mod)).items.map((i) => i.id)).not.toContain(appeal.id);
    expect(await refusal(t.services.moderation.claimAppeal(mod, appeal.id))).toBe('403 appeal_same_moderator');
    expect(await refusal(t.services.moderation.decideAppeal(mod, appeal.id, { outcome: 'reversed' }))).toBe('403 appeal_same_moderator');
    const second = await staff(['moderator']);
    expect((await t.services.moderation.appealQueue(second)).items.map((i) => i.id)).toContain(appeal.id);
    expect(await refusal(t.services.moderation.decideAppeal(second, appeal.id, { outcome: 'reversed' }))).toBe('409 appeal_not_claimed');
    await t.services.moderation.claimAppeal(second, appeal.id);
    const before = sent().length;
    expect(await t.services.moderation.decideAppeal(second, appeal.id, { outcome: 'reversed' })).toEqual({ outcome: 'reversed' });
    expect((await db().select().from(messages).where(eq(messages.id, messageId)))[0].removedAt).toBeNull();
    expect(await t.services.statements.view(b.actor, decisionId!)).toMatchObject({ status: 'reversed', appeal: { status: 'decided', outcome: 'reversed' }, can_appeal: false });
    expect(await db().$count(auditLog, and(eq(auditLog.action, 'appeal.decide'), eq(auditLog.staffId, second.staffId)))).toBe(1);
    await t.services.events.settle();
    expect(sent().slice(before).some((m) => m.to === b.user.email && m.text.includes(`/statements/${decisionId}?token=`))).toBe(true);
  });

  it('bans from a profile report and lifts the ban on an appeal upheld; a confirmed one keeps it', async () => {
    const a = await signUp(t);
    const b = await signUp(t, { name: 'Scammer' });
    const { report } = await t.services.reports.report(a.actor, { profile_id: b.user.id, kind: 'profile', reason: 'scam' });
    const mod = await staff(['moderator']);
    await t.services.moderation.claimReport(mod, report.id);
    const { decision_id: decisionId } = await t.services.moderation.decideReport(mod, report.id, { action: 'ban', ground: 'terms_scam', facts: 'Asked for bank details.' });
    expect((await db().select().from(memberBans).where(eq(memberBans.userId, b.user.id)))[0]).toMatchObject({ reason: 'scammer' });
    expect((await db().select().from(profiles).where(eq(profiles.userId, b.user.id)))[0].status).toBe('disabled');
    await t.services.statements.appeal(b.actor, decisionId!, undefined, { text: 'I never asked anyone for money.' });
    const [appeal] = await db().select().from(appeals).where(eq(appeals.decisionId, decisionId!));
    const other = await staff(['admin']);
    await t.services.moderation.claimAppeal(other, appeal.id);
    await t.services.moderation.decideAppeal(other, appeal.id, { outcome: 'reversed' });
    expect(await db().$count(memberBans, eq(memberBans.userId, b.user.id))).toBe(0);
    expect((await db().select().from(profiles).where(eq(profiles.userId, b.user.id)))[0].status).toBe('active');

    // A removed about-me text comes back only on a reversal; a confirmed appeal leaves it removed.
    const c = await signUp(t);
    await db().update(profiles).set({ about: 'Hateful words' }).where(eq(profiles.userId, c.user.id));
    const { report: second } = await t.services.reports.report(a.actor, { profile_id: c.user.id, kind: 'profile', reason: 'hate' });
    await t.services.moderation.claimReport(mod, second.id);
    const { decision_id: textDecision } = await t.services.moderation.decideReport(mod, second.id, { action: 'remove_about', ground: 'terms_hate' });
    expect((await db().select().from(profiles).where(eq(profiles.userId, c.user.id)))[0].about).toBe('');
    await t.services.statements.appeal(c.actor, textDecision!, undefined, { text: 'Those words are a song title.' });
    const [textAppeal] = await db().select().from(appeals).where(eq(appeals.decisionId, textDecision!));
    await t.services.moderation.claimAppeal(other, textAppeal.id);
    await t.services.moderation.decideAppeal(other, textAppeal.id, { outcome: 'confirmed' });
    expect((await db().select().from(profiles).where(eq(profiles.userId, c.user.id)))[0].about).toBe('');
    expect(await t.services.statements.view(c.actor, textDecision!)).toMatchObject({ status: 'in_force', appeal: { outcome: 'confirmed' } });
  });

  it('closes the appeal window after six months', async () => {
    const b = await signUp(t);
    const photoId = await photo(b.user.id);
    await t.services.photos.moderate({ kind: 'system', job: 'test' }, photoId, 'reject');
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.memberId, b.user.id));
    expect(decision).toMatchObject({ memberId: b.user.id, restriction: 'photo_removed', contentKind: 'photo', ground: 'terms_photo_rules', staffId: null });
    t.clock.advance(184 * DAY);
    expect(await t.services.statements.view(b.actor, decision.id)).toMatchObject({ can_appeal: false });
    expect(await refusal(t.services.statements.appeal(b.actor, decision.id, undefined, { text: 'Please look again at it.' }))).toBe('409 appeal_too_late');
  });

  it('writes a statement for every ban and every photo rejection by the existing paths', async () => {
    const b = await signUp(t);
    const profilePhoto = await photo(b.user.id);
    await t.services.photos.moderate(CLI, profilePhoto, 'reject');
    // Rejecting it again is not a second restriction.
    await t.services.photos.moderate(CLI, profilePhoto, 'reject');
    const c = await signUp(t);
    const [chat] = await db().insert(chatPhotos).values({ conversationId: (await (async () => {
      await message(c, b.user.id, 'Hi');
      const [m] = await db().select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.senderId, c.user.id));
      return m.conversationId;
    })()), senderId: c.user.id, filename: `c${c.user.id}.webp`, thumbFilename: `c${c.user.id}_t.webp`, width: 1, height: 1, status: 'active' }).returning();
    await t.services.chat.moderatePhoto(CLI, chat.id, 'reject');
    await t.services.bans.ban(CLI, c.user.id, 'abuse', 'Threats');
    const rows = await db().select().from(moderationDecisions).where(eq(moderationDecisions.memberId, b.user.id));
    expect(rows.map((r) => [r.restriction, r.contentKind, r.contentId])).toEqual([['photo_removed', 'photo', profilePhoto]]);
    const ofC = await db().select().from(moderationDecisions).where(eq(moderationDecisions.memberId, c.user.id));
    expect(ofC.map((r) => [r.restriction, r.contentKind, r.ground, r.facts])).toEqual([
      ['photo_removed', 'chat_photo', 'terms_photo_rules', ''], ['banned', 'account', 'terms_harassment', 'Threats'],
    ]);
  });

  it('serves the report, my reports, statement and appeal endpoints by their contracts, refusing bad input with 4xx and changing nothing', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const before = await reportCount();
    expect((await t.client().post('/api/report.php', { profile_id: b.user.id, kind: 'profile', reason: 'fake' })).status).toBe(403);
    const bad = await a.client.post('/api/report.php', { profile_id: b.user.id, kind: 'profile', reason: 'boring' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('report_reason_required');
    expect((await a.client.post('/api/report.php', { profile_id: 'x', kind: 'profile', reason: 'fake' })).status).toBe(400);
    expect((await a.client.post('/api/report.php', { profile_id: a.user.id, kind: 'profile', reason: 'fake' })).body.error.code).toBe('cannot_report_self');
    expect(await reportCount()).toBe(before);
    const made = await a.client.post('/api/report.php', { profile_id: b.user.id, kind: 'profile', reason: 'spam', text: 'Adverts', block: true });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ existing: false, blocked: true, report: { profile_id: b.user.id, reason: 'spam', status: 'open' } });
    expect((await a.client.get('/api/report.php')).body.reports).toHaveLength(1);

    const mod = await staff(['moderator']);
    await t.services.moderation.claimReport(mod, made.body.report.id);
    const { decision_id: decisionId } = await t.services.moderation.decideReport(mod, made.body.report.id, { action: 'ban', ground: 'terms_spam' });
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.id, decisionId!));
    // The banned member is signed out everywhere: the link's token is the way in.
    expect((await b.client.get(`/api/statement.php?id=${decisionId}`)).status).toBe(404);
    expect((await t.client().get(`/api/statement.php?id=${decisionId}&token=${'x'.repeat(43)}`)).status).toBe(404);
    expect((await t.client().get(`/api/statement.php?id=abc&token=${decision.token}`)).status).toBe(400);
    const viewed = await t.client().get(`/api/statement.php?id=${decisionId}&token=${decision.token}`);
    expect(viewed.status).toBe(200);
    expect(viewed.body.statement).toMatchObject({ restriction: 'banned', ground: 'terms_spam', can_appeal: true });
    const short = await t.client().post('/api/appeal.php', { id: decisionId, token: decision.token, text: 'no' });
    expect(short.status).toBe(400);
    expect(await db().$count(appeals, eq(appeals.decisionId, decisionId!))).toBe(0);
    const appealed = await t.client().post('/api/appeal.php', { id: decisionId, token: decision.token, text: 'These were not adverts at all.' });
    expect(appealed.status).toBe(201);
    expect(appealed.body.statement.appeal).toMatchObject({ status: 'open' });
    expect((await t.client().post('/api/appeal.php', { id: decisionId, token: decision.token, text: 'These were not adverts at all.' })).status).toBe(409);
  });

  it('decides a /complaints notice with a restriction and a statement linked to it; the notifier sees the outcome on the follow page', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const messageId = await message(b, a.user.id, 'Buy my pills, cheap');
    const { reference } = await t.services.notices.submit(
      { siteId: t.siteId, userId: a.user.id, ip: '198.51.100.40', lang: 'en' },
      { kind: 'message', content: String(messageId), reason: 'illegal', explanation: 'Selling prescription drugs.', name: 'A', email: 'a@example.org', bona_fide: true },
    );
    const mod = await staff(['moderator']);
    const queue = await t.services.moderation.noticeQueue(mod);
    expect(queue.items.map((n) => n.reference)).toContain(reference);
    const input = { action: 'hide_message' as const, ground: 'law_illegal_content' as const, facts: 'The message offers prescription drugs for sale.', decision: 'We hid the message.' };
    expect(await refusal(t.services.moderation.decideNotice(mod, reference, input))).toBe('409 notice_not_claimed');
    await t.services.moderation.claimNotice(mod, reference);
    const other = await staff(['moderator']);
    expect(await refusal(t.services.moderation.claimNotice(other, reference))).toBe('409 item_claimed');
    expect(await refusal(t.services.moderation.decideNotice(mod, reference, { ...input, action: 'remove_photo' }))).toBe('400 action_not_for_report');
    expect(await refusal(t.services.moderation.decideNotice(mod, reference, { ...input, decision: ' ' }))).toBe('400 invalid_input');
    const { status, decision_id: decisionId } = await t.services.moderation.decideNotice(mod, reference, input);
    expect(status).toBe('removed');
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.id, decisionId!));
    expect(decision).toMatchObject({ memberId: b.user.id, restriction: 'message_hidden', noticeId: expect.any(Number), reportId: null, ground: 'law_illegal_content' });
    expect(await t.services.statements.view(b.actor, decisionId!)).toMatchObject({ source: 'notice', basis: 'law' });
    const [notice] = await db().select().from(notices).where(eq(notices.reference, reference));
    expect(await t.services.notices.follow(t.siteId, reference, notice.followToken)).toMatchObject({ status: 'removed', decision: 'We hid the message.' });
    expect(await db().$count(auditLog, and(eq(auditLog.action, 'notice.decide'), eq(auditLog.objectId, String(notice.id))))).toBe(1);
    expect(await refusal(t.services.moderation.claimNotice(mod, reference))).toBe('409 notice_already_decided');
  });

  it('mails the statement and the appeal\'s outcome in the member\'s language, with the link to the statement', async () => {
    const b = await signUp(t);
    await db().update(users).set({ language: 'de' }).where(eq(users.id, b.user.id));
    const photoId = await photo(b.user.id);
    const mod = await staff(['moderator']);
    const before = sent().length;
    await t.services.photos.moderate(CLI, photoId, 'reject');
    const [decision] = await db().select().from(moderationDecisions).where(eq(moderationDecisions.memberId, b.user.id));
    await t.services.events.settle();
    const statementMail = sent().slice(before).find((m) => m.to === b.user.email && m.text.includes('/statements/'));
    expect(statementMail?.subject).toMatch(/^Eine Entscheidung zu deinem Konto bei /);
    expect(statementMail?.text).toContain(`/statements/${decision.id}?token=${decision.token}`);
    await t.services.statements.appeal(b.actor, decision.id, undefined, { text: 'Auf dem Foto bin eindeutig ich.' });
    const [appeal] = await db().select().from(appeals).where(eq(appeals.decisionId, decision.id));
    await t.services.moderation.claimAppeal(mod, appeal.id);
    const mid = sent().length;
    await t.services.moderation.decideAppeal(mod, appeal.id, { outcome: 'reversed' });
    expect((await db().select().from(photos).where(eq(photos.id, photoId)))[0].status).toBe('active');
    await t.services.events.settle();
    const outcome = sent().slice(mid).find((m) => m.to === b.user.email && m.text.includes('/statements/'));
    expect(outcome?.subject).toBe('Deinem Widerspruch wurde stattgegeben');
  });
});
