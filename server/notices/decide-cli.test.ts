import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { notices, outbox } from '../db/schema.ts';
import { seedDemoSite } from '../db/seed.ts';
import { ROOT_DIR } from '../paths.ts';
import { clonePostgresTemplate, DATABASE_KINDS, testClock } from '../../tests/helpers/test-app.ts';

const run = promisify(execFile);

/**
 * `npm run notices:decide` against a real configured database: the decision is stored and the outcome
 * mail waits in the outbox for the server (the command has no mailer of its own).
 */
describe.each(DATABASE_KINDS)('npm run notices:decide on %s', (kind) => {
  const dir = mkdtempSync(join(tmpdir(), 'amora-notices-cli-'));
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides a notice and queues the outcome mail; bad arguments and unknown references change nothing', async () => {
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
    const reference = 'ABCD-EFGH-JKMN';
    let database = await open();
    await database.migrate();
    const { siteId } = await seedDemoSite(database.db, { photosDir: join(dir, 'photos'), clock: testClock(), profileCount: 1 });
    await database.db.insert(notices).values({
      siteId, reference, followToken: 'x'.repeat(43), kind: 'other', contentRef: 'https://example.org/x', reason: 'illegal',
      explanation: 'Counterfeit goods for sale.', reporterEmail: 'cli@example.org', bonaFide: true,
    });
    await database.close();

    const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/notices/decide-cli.ts', ...args], {
      cwd: ROOT_DIR, env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    }).then((r) => ({ code: 0, out: r.stdout + r.stderr }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }));

    expect(await cli(reference, 'removed')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await cli('ZZZZ-ZZZZ-ZZZZ', 'removed', 'Gone')).toMatchObject({ code: 1, out: expect.stringContaining('not_found') });
    expect(await cli(reference.toLowerCase(), 'removed', 'The', 'listing', 'was', 'taken', 'down.')).toMatchObject({
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
    } finally {
      await database.close();
    }
  }, 120_000);
});
