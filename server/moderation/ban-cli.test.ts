import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addCredits, spendCredits } from '../credits/ledger.ts';
import { conversations, creditLedger, memberBans, messages, profiles, sessions, users } from '../db/schema.ts';
import { seedDemoSite } from '../db/seed.ts';
import { cliDatabase, type CliDatabase } from '../../tests/helpers/cli.ts';
import { DATABASE_KINDS, testClock } from '../../tests/helpers/test-app.ts';

/**
 * `npm run members:ban` against a real configured database: bad arguments and unknown members change nothing;
 * a fake profile is banned, taken out of reach, and what another member spent on messages to it comes back, once.
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

    const cli = (...args: string[]) => target!.cli('server/moderation/ban-cli.ts', ...args);

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
    } finally {
      await database.close();
    }
  }, 120_000);
});
