import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLog, notices, outbox, staffMembers } from '../db/schema.ts';
import { seedDemoSite } from '../seed/seed.ts';
import { cliDatabase, type CliDatabase } from '../../tests/helpers/cli.ts';
import { decideCommand } from './decide-cli.ts';
import { staffCreateCommand } from './staff-create-cli.ts';
import { DATABASE_KINDS, testClock } from '../../tests/helpers/test-app.ts';

/**
 * `npm run notices:decide` against a real configured database, as a named moderator: the decision is stored with its
 * audit row naming them, and the outcome mail waits in the outbox for the server (the command has no mailer of its own).
 * The refusals run the command in-process; the decision itself runs as its own process, as an operator would.
 */
describe.each(DATABASE_KINDS)('npm run notices:decide on %s', (kind) => {
  let target: CliDatabase | undefined;
  afterAll(() => target?.drop());

  it('decides a notice and queues the outcome mail; bad arguments and unknown references change nothing', async () => {
    target = await cliDatabase(kind, 'notices-cli');
    const { dir, open } = target;
    const reference = 'ABCD-EFGH-JKMN';
    let database = await open();
    await database.migrate();
    const { siteId } = await seedDemoSite(database.db, { photosDir: join(dir, 'photos'), clock: testClock(), profileCount: 1 });
    await database.db.insert(notices).values({
      siteId, reference, followToken: 'x'.repeat(43), kind: 'other', contentRef: 'https://example.org/x', reason: 'illegal',
      explanation: 'Counterfeit goods for sale.', reporterEmail: 'cli@example.org', bonaFide: true,
    });
    await database.close();

    const run = (...args: string[]) => target!.run(decideCommand, ...args);
    const cli = (...args: string[]) => run('--staff', 'mod@example.com', ...args);
    expect(await target.run(staffCreateCommand, '--email', 'mod@example.com', '--name', 'Mo', '--role', 'moderator')).toMatchObject({ code: 0 });
    expect(await target.run(staffCreateCommand, '--email', 'help@example.com', '--name', 'Su', '--role', 'support')).toMatchObject({ code: 0 });

    // Without a named staff member, with an unknown one, or one without the role: nothing changes.
    expect(await run(reference, 'removed', 'Gone')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await run('--staff', 'nobody@example.com', reference, 'removed', 'Gone')).toMatchObject({ code: 1, out: expect.stringContaining('No active staff member') });
    expect(await run('--staff', 'help@example.com', reference, 'removed', 'Gone')).toMatchObject({ code: 1, out: expect.stringContaining('not_found') });
    expect(await cli(reference, 'removed')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await cli('ZZZZ-ZZZZ-ZZZZ', 'removed', 'Gone')).toMatchObject({ code: 1, out: expect.stringContaining('not_found') });
    expect(await target.cli('server/cli/decide-cli.ts', '--staff', 'mod@example.com', reference.toLowerCase(), 'removed', 'The', 'listing', 'was', 'taken', 'down.')).toMatchObject({
      code: 0, out: expect.stringContaining(`Notice ${reference}: removed`),
    });
    expect(await cli(reference, 'no_action', 'Again')).toMatchObject({ code: 1, out: expect.stringContaining('notice_already_decided') });

    database = await open();
    try {
      const [row] = await database.db.select().from(notices).where(eq(notices.reference, reference));
      expect(row).toMatchObject({ status: 'removed', decision: 'The listing was taken down.' });
      expect(row.decidedAt).toBeInstanceOf(Date);
      const owed = await database.db.select().from(outbox).where(eq(outbox.subscriber, 'mail.notice_decided'));
      expect(owed.map((r) => r.payload)).toEqual([{ noticeId: row.id }]);
      // One audit row, naming the moderator, for the one decision that was taken.
      const [mod] = await database.db.select({ id: staffMembers.id }).from(staffMembers).where(eq(staffMembers.email, 'mod@example.com'));
      const rows = await database.db.select().from(auditLog).where(and(eq(auditLog.objectType, 'notice'), eq(auditLog.objectId, String(row.id))));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ staffId: mod.id, role: 'moderator', action: 'notice.decide', after: { status: 'removed', decision: 'The listing was taken down.' } });
    } finally {
      await database.close();
    }
  }, 120_000);
});
