import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addCredits, spendCredits } from '../credits/ledger.ts';
import { auditLog, conversations, creditLedger, memberBans, messages, profiles, sessions, staffMembers, users } from '../db/schema.ts';
import { seedDemoSite } from '../seed/seed.ts';
import { LOCK_FILE, lockDataDir } from '../db/data-dir-lock.ts';
import { cliDatabase, type CliDatabase } from '../../tests/helpers/cli.ts';
import { banCommand } from './ban-cli.ts';
import { staffCreateCommand } from './staff-create-cli.ts';
import { DATABASE_KINDS, testClock } from '../../tests/helpers/test-app.ts';

/**
 * `npm run members:ban` against a real configured database: bad arguments and unknown members change nothing;
 * a fake profile is banned, taken out of reach, and what another member spent on messages to it comes back, once.
 * The cases run the command in-process; the lock-file refusal runs it as its own process, as an operator would.
 */
describe.each(DATABASE_KINDS)('npm run members:ban on %s', (kind) => {
  let target: CliDatabase | undefined;
  afterAll(() => target?.drop());

  it('bans a member and refunds the credits spent on it; bad arguments and unknown members change nothing', async () => {
    target = await cliDatabase(kind, 'ban-cli');
    const { dir, open } = target;
    let database = await open();
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(dir, 'photos'), clock: testClock(), profileCount: 2 });
    const [fake, sender] = await database.db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(2);
    // The sender paid 7 credits for a message to the (soon to be banned) fake profile.
    const [low, high] = [fake.id, sender.id].sort((a, b) => a - b);
    await database.db.transaction(async (tx) => {
      await addCredits(tx, sender.id, 50, 'demo_grant', 'ban-cli-grant');
      const [conversation] = await tx.insert(conversations).values({ userLow: low, userHigh: high }).returning();
      const [message] = await tx.insert(messages).values({ conversationId: conversation.id, senderId: sender.id, body: 'Hello?', creditsSpent: 7 }).returning();
      expect(await spendCredits(tx, sender.id, 7, 'message', String(message.id), new Date())).not.toBeNull();
    });
    const balance = async (id: number) => (await database.db.select({ c: users.credits }).from(users).where(eq(users.id, id)))[0].c;
    const before = await balance(sender.id);
    await database.close();

    const run = (...args: string[]) => target!.run(banCommand, ...args);
    const cli = (...args: string[]) => run('--staff', 'mod@example.com', ...args);
    expect(await target.run(staffCreateCommand, '--email', 'mod@example.com', '--name', 'Mo', '--role', 'moderator')).toMatchObject({ code: 0 });
    expect(await target.run(staffCreateCommand, '--email', 'money@example.com', '--name', 'Fi', '--role', 'finance')).toMatchObject({ code: 0 });

    // Without a named staff member, with an unknown one, or one without the role: nothing happens.
    expect(await run(String(fake.id), 'fake')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await run('--staff', 'nobody@example.com', String(fake.id), 'fake')).toMatchObject({ code: 1, out: expect.stringContaining('No active staff member') });
    expect(await run('--staff', 'money@example.com', String(fake.id), 'fake')).toMatchObject({ code: 1, out: expect.stringContaining('does not have the role') });
    expect(await cli(String(fake.id))).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await cli(String(fake.id), 'pirate')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await cli('99999999999999999999', 'fake')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await cli('2147483000', 'fake')).toMatchObject({ code: 1, out: expect.stringContaining('not_found') });
    expect(await cli(String(fake.id), 'fake', 'Stock', 'photos')).toMatchObject({
      code: 0, out: expect.stringContaining(`Member ${fake.id} banned (fake); 7 credits refunded to 1 member.`),
    });
    // Banning again refunds nothing twice.
    expect(await cli(String(fake.id), 'scammer')).toMatchObject({ code: 0, out: expect.stringContaining('0 credits refunded to 0 members') });

    database = await open();
    try {
      expect(await balance(sender.id)).toBe(before + 7);
      expect(await database.db.$count(creditLedger, and(eq(creditLedger.userId, sender.id), eq(creditLedger.reason, 'ban_refund')))).toBe(1);
      expect((await database.db.select().from(memberBans).where(eq(memberBans.userId, fake.id)))[0]).toMatchObject({ reason: 'scammer' });
      expect((await database.db.select().from(profiles).where(eq(profiles.userId, fake.id)))[0].status).toBe('disabled');
      expect((await database.db.select().from(profiles).where(eq(profiles.userId, sender.id)))[0].status).not.toBe('disabled');
      expect(await database.db.$count(sessions, eq(sessions.userId, fake.id))).toBe(0);
      // Both bans are in the audit log under the moderator's name; the refusals left none.
      const rows = await database.db.select().from(auditLog).where(eq(auditLog.action, 'member.ban')).orderBy(asc(auditLog.id));
      const [mod] = await database.db.select().from(staffMembers).where(eq(staffMembers.email, 'mod@example.com'));
      expect(rows.map((r) => [r.staffId, r.role, r.memberId, (r.after as { reason: string }).reason])).toEqual([
        [mod.id, 'moderator', fake.id, 'fake'], [mod.id, 'moderator', fake.id, 'scammer'],
      ]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('refuses to open an embedded database that a running server holds, and takes over a stale lock', async () => {
    if (kind !== 'pglite') return;
    const held = await cliDatabase(kind, 'ban-cli-lock');
    try {
      // This test's own process stands in for the running server.
      writeFileSync(join(held.dir, LOCK_FILE), `${process.pid}\n`);
      const refused = await held.cli('server/cli/ban-cli.ts', '--staff', 'mod@example.com', '1', 'fake');
      expect(refused).toMatchObject({ code: 1, out: expect.stringContaining('in use by a running server') });
      expect(refused.out).toContain('/console');
      expect(existsSync(join(held.dir, 'db'))).toBe(false);
      // A lock whose process is gone is stale: the command opens the database (and finds no such staff member).
      writeFileSync(join(held.dir, LOCK_FILE), '2147483646\n');
      expect(await held.run(banCommand, '--staff', 'mod@example.com', '1', 'fake')).toMatchObject({ code: 1, out: expect.stringContaining('No active staff member') });
      // A server takes a stale lock over and releases it when done.
      const lock = lockDataDir(held.dir);
      expect(readFileSync(join(held.dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
      lock.release();
      expect(existsSync(join(held.dir, LOCK_FILE))).toBe(false);
    } finally {
      await held.drop();
    }
  }, 60_000);
});
