import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { auditLog, memberBans, memberFlags, users } from '../db/schema.ts';
import type { StaffActor } from '../actor.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { MANY_REPORTS_REPORTERS, MASS_MESSAGING_RECIPIENTS, REPEATED_TEXT_RECIPIENTS } from './flag-rules.ts';

describe.each(DATABASE_KINDS)('automatic flags on %s', (kind) => {
  let t: TestApp;
  let moderator: StaffActor;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, freeMessages: 0 });
    const staff = await t.services.staff.create({ kind: 'system', job: 'test' }, { email: `mod-${kind}@example.org`, name: 'Mod', roles: ['moderator'] });
    moderator = { kind: 'staff', staffId: staff.id, roles: ['moderator'], siteIds: [t.siteId], companyIds: null };
  });
  afterAll(() => t.close());

  let keys = 0;
  async function member(name: string) {
    const m = await signUp(t, { name });
    await t.database.db.transaction((tx) => addCredits(tx, m.user.id, 500, 'demo_grant', `flags-grant-${m.user.id}`));
    // Premium: a free member writes in two conversations only.
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, m.user.id));
    return m;
  }
  async function send(from: Awaited<ReturnType<typeof member>>, to: number, text: string) {
    const res = await from.client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': `flags-${kind}-${++keys}-key` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.message.id as number;
  }
  const flagsOf = (userId: number) => t.database.db.select().from(memberFlags).where(eq(memberFlags.userId, userId));

  it('a phone number and a request for money in a message each flag the sender, with the message as evidence, once per message', async () => {
    const [sender, recipient] = [await member('Sender'), await member('Recipient')];
    const id = await send(sender, recipient.user.id, 'Text me on WhatsApp 0612345678, and could you lend me some money?');
    await t.services.events.drain();
    // The outbox running the subscriber again (a retry) adds no second piece of evidence.
    await t.services.flags.checkMessage({ messageId: id, conversationId: 0, senderId: sender.user.id, recipientId: recipient.user.id, text: 'Text me on WhatsApp 0612345678, and could you lend me some money?' });
    const flags = await flagsOf(sender.user.id);
    expect(flags.map((f) => f.kind).sort()).toEqual(['money_request', 'off_site_contact']);
    const contact = flags.find((f) => f.kind === 'off_site_contact')!;
    expect(contact).toMatchObject({ hits: 1, siteId: t.siteId, resolvedAt: null });
    expect(contact.evidence).toEqual([expect.objectContaining({ messageId: id, recipientId: recipient.user.id, matched: ['0612345678', 'WhatsApp'] })]);
    // A flag restricts nothing: the member can still send, and no ban exists.
    await send(sender, recipient.user.id, 'Are you there?');
    expect(await t.database.db.$count(memberBans, eq(memberBans.userId, sender.user.id))).toBe(0);
    // The recipient's harmless reply flags nobody.
    await send(recipient, sender.user.id, 'Hello! Nice to meet you.');
    await t.services.events.drain();
    expect(await flagsOf(recipient.user.id)).toEqual([]);
  });

  it('the same text to several members within a day flags its sender; a short greeting does not', async () => {
    const sender = await member('Copier');
    const others = await Promise.all(Array.from({ length: REPEATED_TEXT_RECIPIENTS }, (_, i) => member(`Target${i}`)));
    for (const [i, o] of others.entries()) {
      await send(sender, o.user.id, 'Hi, I am new here.');
      t.clock.advance(10 * 60_000);
      await send(sender, o.user.id, i % 2 ? 'You look   lovely, want to meet tonight?' : 'you look lovely, want to meet TONIGHT?');
      await t.services.events.drain();
    }
    const flags = await flagsOf(sender.user.id);
    expect(flags.map((f) => f.kind)).toEqual(['repeated_text']);
    expect(flags[0].evidence[0]).toMatchObject({ count: REPEATED_TEXT_RECIPIENTS, excerpt: expect.stringMatching(/lovely/) });
  });

  it('messages to many members in the first hour after sign-up flag the sender; the same later does not', async () => {
    const fresh = await member('Fresh');
    const settled = await member('Settled');
    await t.database.db.update(users).set({ signupDate: t.clock() }).where(eq(users.id, fresh.user.id));
    await t.database.db.update(users).set({ signupDate: new Date(t.clock().getTime() - 2 * 3_600_000) }).where(eq(users.id, settled.user.id));
    const targets = await Promise.all(Array.from({ length: MASS_MESSAGING_RECIPIENTS }, (_, i) => member(`Many${i}`)));
    for (const [i, o] of targets.entries()) {
      await send(fresh, o.user.id, `Hello number ${i}`);
      await send(settled, o.user.id, `Hi there ${i}`);
    }
    await t.services.events.drain();
    expect((await flagsOf(fresh.user.id)).map((f) => f.kind)).toEqual(['mass_messaging']);
    expect(await flagsOf(settled.user.id)).toEqual([]);
  });

  it('the queue lists open flags of the moderator\'s sites oldest first; opening evidence and resolving are audited', async () => {
    const [sender, recipient] = [await member('Queued'), await member('Peer')];
    await send(sender, recipient.user.id, 'mail me at queued@example.com');
    await t.services.events.drain();
    const { flags, counts } = await t.services.flags.queue(moderator);
    const mine = flags.find((f) => f.memberId === sender.user.id)!;
    expect(mine).toMatchObject({ kind: 'off_site_contact', hits: 1, siteId: t.siteId });
    expect(counts.off_site_contact).toBeGreaterThanOrEqual(1);
    expect(flags.map((f) => f.firstAt)).toEqual([...flags.map((f) => f.firstAt)].sort());
    // Staff of another site, a support agent, see nothing of it.
    const elsewhere: StaffActor = { ...moderator, siteIds: [t.siteId + 1000] };
    expect((await t.services.flags.queue(elsewhere)).flags).toEqual([]);
    await expect(t.services.flags.queue({ ...moderator, roles: ['support'] })).rejects.toMatchObject({ status: 403 });
    await expect(t.services.flags.evidence(elsewhere, mine.id)).rejects.toMatchObject({ status: 403 });

    const opened = await t.services.flags.evidence(moderator, mine.id, '192.0.2.7');
    expect(opened.evidence[0]).toMatchObject({ matched: ['queued@example.com'] });
    await t.services.flags.resolve(moderator, mine.id, '192.0.2.7');
    await expect(t.services.flags.resolve(moderator, mine.id)).rejects.toMatchObject({ status: 409 });
    const audited = await t.database.db.select().from(auditLog).where(and(eq(auditLog.objectType, 'member_flag'), eq(auditLog.objectId, String(mine.id))));
    expect(audited.map((a) => [a.action, a.staffId, a.memberId, a.ip])).toEqual([
      ['flag.open', moderator.staffId, sender.user.id, '192.0.2.7'], ['flag.resolve', moderator.staffId, sender.user.id, '192.0.2.7'],
    ]);
    expect((await t.services.flags.queue(moderator)).flags.some((f) => f.id === mine.id)).toBe(false);
    // A new hit after the decision opens a new flag.
    await send(sender, recipient.user.id, 'or on telegram');
    await t.services.events.drain();
    expect((await flagsOf(sender.user.id)).filter((f) => f.resolvedAt === null)).toHaveLength(1);
  });

  it('reports from several members against one flag that member; one member reporting twice counts once', async () => {
    const reported = await member('Reported');
    const reporters = await Promise.all(Array.from({ length: MANY_REPORTS_REPORTERS }, (_, i) => member(`Reporter${i}`)));
    const report = (m: Awaited<ReturnType<typeof member>>, reason: string) =>
      m.client.post('/api/report.php', { profile_id: reported.user.id, kind: 'profile', reason });
    for (const [i, r] of reporters.entries()) {
      expect((await report(r, i ? 'fake' : 'scam')).status).toBe(201);
      if (i === 0) expect((await report(r, 'spam')).status).toBe(201);
      const kinds = (await flagsOf(reported.user.id)).map((f) => f.kind);
      expect(kinds, `after ${i + 1} reporters`).toEqual(i + 1 < MANY_REPORTS_REPORTERS ? [] : ['many_reports']);
    }
    expect((await flagsOf(reported.user.id))[0].evidence[0]).toMatchObject({ count: MANY_REPORTS_REPORTERS, matched: ['fake'] });
  });
});
