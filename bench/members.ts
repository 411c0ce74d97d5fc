/** What the benches that send messages share: a database of members with credits, their sessions, paced sends. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoSite } from '../server/seed/seed.ts';
import { systemClock } from '../server/infra/clock.ts';
import { createLogger } from '../server/infra/logger.ts';
import { localStorage } from '../server/infra/storage.ts';
import { createServices } from '../server/services.ts';
import { databaseUrl, recreateDatabase } from './lib.ts';

/**
 * Database `name`, new: the demo site without demo profiles and `count` confirmed, paying members with a million
 * credits each (granted in the ledger, as any balance is). Returns the site and the members' ids in order.
 */
export async function seedMembers(name: string, count: number): Promise<{ siteId: number; ids: number[] }> {
  await recreateDatabase(name);
  const url = databaseUrl(name);
  const database = await openDatabase({ url });
  await database.migrate();
  const photosDir = mkdtempSync(join(tmpdir(), 'amora-bench-members-'));
  const { siteId } = await seedDemoSite(database.db, { photosDir, clock: systemClock, profileCount: 0 });
  rmSync(photosDir, { recursive: true, force: true });
  await database.close();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`
      INSERT INTO users (site_id, email, password_hash, status, paid_user, credits, signup_date)
      SELECT $1, 'chat' || g || '@bench.invalid', '!', 'active', true, 1000000, now() FROM generate_series(1, $2::int) g`, [siteId, count]);
    await c.query(`
      INSERT INTO profiles (user_id, name, gender, birth_date, country, status, created_at)
      SELECT id, 'Member ' || id, CASE WHEN id % 2 = 0 THEN 'female' ELSE 'male' END, date '1990-01-01', 'NL', 'active', now()
      FROM users WHERE email LIKE 'chat%@bench.invalid'`);
    await c.query(`
      INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
      SELECT id, 1000000, 1000000, 'demo_grant', 'bench-' || id FROM users WHERE email LIKE 'chat%@bench.invalid'`);
    // Statistics as autovacuum would have gathered on a real database: without them the planner takes the fresh
    // tables for empty and joins a session to every member of the site (100 ms instead of 0.3 ms a request).
    await c.query('ANALYZE');
    const { rows } = await c.query<{ id: number }>(`SELECT id FROM users WHERE email LIKE 'chat%@bench.invalid' ORDER BY id`);
    return { siteId, ids: rows.map((r) => r.id) };
  } finally {
    await c.end();
  }
}

/** Session cookies for members, made as log-in makes them. */
export async function memberSessions(name: string, siteId: number, ids: number[]): Promise<Map<number, string>> {
  const database = await openDatabase({ url: databaseUrl(name) });
  const services = createServices({ db: database.db, clock: systemClock, storage: localStorage(tmpdir()), logger: createLogger('error') });
  const out = new Map<number, string>();
  for (const id of ids) out.set(id, await services.accounts.createSession(id, siteId, 'bench'));
  await database.close();
  return out;
}

/** Starts `count` jobs at `perSecond` a second, each when it is due, without waiting for the ones before. */
export async function paced(count: number, perSecond: number, job: (i: number, due: number) => Promise<void>) {
  const start = performance.now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    running.push(job(i, due));
  }
  await Promise.all(running);
}
