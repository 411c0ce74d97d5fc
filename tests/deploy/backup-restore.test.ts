import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../server/db/client.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { freePort, prepareServerDatabase, startServer } from '../helpers/server-process.ts';
import { postgresAdmin } from '../helpers/test-app.ts';

/**
 * docs/operations.md's restore drill, for real: a seeded database is dumped with pg_dump, restored with pg_restore
 * into a new database, and a server started on the copy (with a copy of the photo files) lets the demo member in.
 */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const TABLES = ['sites', 'users', 'profiles', 'photos', 'credit_ledger', 'credit_packages', 'regions', 'app_secrets', 'drizzle.__drizzle_migrations'];

async function rowCounts(url: string): Promise<Record<string, number>> {
  const database = await openDatabase({ url });
  try {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const result = await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`)) as unknown as { rows: { n: number }[] };
      counts[table] = result.rows[0].n;
    }
    return counts;
  } finally {
    await database.close();
  }
}

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr}`);
}

describe.skipIf(!inject('pgTemplate'))('backup and restore of PostgreSQL', { timeout: 120_000 }, () => {
  it('a pg_dump restored into a new database serves the site, and the demo member signs in', async () => {
    const source = mkdtempSync(join(tmpdir(), 'amora-backup-'));
    cleanups.push(() => rmSync(source, { recursive: true, force: true }));
    const prepared = await prepareServerDatabase('postgres', source);
    cleanups.push(prepared.cleanup);
    const sourceUrl = prepared.env.DATABASE_URL;

    const dump = join(source, 'amora.dump');
    run('pg_dump', ['--format=custom', '--no-owner', '--file', dump, sourceUrl]);

    const restoredName = `amora_restored_${process.pid}_${Date.now() % 100000}`;
    await postgresAdmin(`CREATE DATABASE ${restoredName}`);
    cleanups.push(() => postgresAdmin(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`));
    const restoredUrl = Object.assign(new URL(sourceUrl), { pathname: `/${restoredName}` }).toString();
    run('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', restoredUrl, dump]);

    const before = await rowCounts(sourceUrl);
    expect(before.users).toBeGreaterThan(1);
    expect(await rowCounts(restoredUrl)).toEqual(before);

    // The photo files are restored next to the database (here a copy of the local photo directory).
    const restoredDir = mkdtempSync(join(tmpdir(), 'amora-restored-'));
    cleanups.push(() => rmSync(restoredDir, { recursive: true, force: true }));
    cpSync(join(source, 'photos'), join(restoredDir, 'photos'), { recursive: true });

    const port = await freePort();
    const server = startServer({
      NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: restoredUrl, DATA_DIR: restoredDir,
      SEED_DEMO: 'never', LOG_LEVEL: 'info',
    });
    cleanups.push(() => server.child.kill('SIGKILL'));
    await server.ready;
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const login = await fetch(`${base}/api/user.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-type': 'client', host: 'localhost' },
      body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const me = await fetch(`${base}/api/user.php`, { headers: { cookie, 'x-request-type': 'client' } });
    expect(me.status).toBe(200);
    const { user } = await me.json() as { user: { email: string; main_image: string | null } };
    expect(user.email).toBe(DEMO_EMAIL);

    // A member's photo is served from the restored files.
    const members = await (await fetch(`${base}/api/members.php`, { headers: { cookie, 'x-request-type': 'client' } })).json() as {
      profiles: { main_image: { filename: string } | null }[];
    };
    const image = members.profiles.find((m) => m.main_image)?.main_image?.filename;
    expect(image).toBeTruthy();
    const photo = await fetch(`${base}/photos/${image}`);
    expect(photo.status, image).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/webp');
  });
});
