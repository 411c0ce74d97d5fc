import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addCredits, spendCredits } from '../credits/ledger.ts';
import { openDatabase } from '../db/client.ts';
import { conversations, creditLedger, memberBans, messages, profiles, sessions, users } from '../db/schema.ts';
import { seedDemoSite } from '../db/seed.ts';
import { ROOT_DIR } from '../paths.ts';
import { clonePostgresTemplate, DATABASE_KINDS, testClock } from '../../tests/helpers/test-app.ts';

const run = promisify(execFile);

/**
 * `npm run members:ban` against a real configured database: bad arguments and unknown members change nothing;
 * a fake profile is banned, taken out of reach, and what another member spent on messages to it comes back, once.
 */
describe.each(DATABASE_KINDS)('npm run members:ban on %s', (kind) => {
  const dir = mkdtempSync(join(tmpdir(), 'amora-ban-cli-'));
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('bans a member and refunds the credits spent on it; bad arguments and unknown members change nothing', async () => {
    let env: Record<string, string>;
    let open: () => ReturnType<typeof openDatabase>;
    if (kind === 'pglite') {
      env = { DATA_DIR: dir, DATABASE_URL: '' };
      open = () => openDatabase({ dataDir: join(dir, 'db') });
    } else {
      const clone = await clonePostgresTemplate();
      cleanups.push(clone.drop);
      env = { DATA_DIR: dir, DATABASE_URL: clone.url };
      open = () => openDatabase({ url: clone.url });
    }
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

    const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/moderation/ban-cli.ts', ...args], {
      cwd: ROOT_DIR, env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    }).then((r) => ({ code: 0, out: r.stdout + r.stderr }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }));

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
