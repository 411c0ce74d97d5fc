import { cpSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import type { FullConfig } from '@playwright/test';
import pg from 'pg';
import { E2E_BASE_PORT, SECOND_SITE, sitePort } from './site-port.ts';

/**
 * One site per worker, each on its own port and database, so browser tests run side by side without
 * sharing members, rate limits or settings. Seeding the demo site takes most of a start, so it runs
 * once: the first site seeds, stops, and its data folder (and database) is copied for the others.
 *
 * The sites run on PostgreSQL when the tests' server answers (TEST_DATABASE_URL, as the integration tests;
 * REQUIRE_POSTGRES=1 makes it a must), one database per site cloned from the seeded one; otherwise on
 * the embedded database, as the quick start does. The integration tests cover both databases.
 */
export default async function globalSetup(config: FullConfig) {
  const count = Math.max(1, config.workers);
  const dir = (i: number) => `test-results/e2e-data-${i}`;
  for (let i = 0; i < count; i++) rmSync(dir(i), { recursive: true, force: true });
  const postgres = await postgresDatabases(count);

  const seeding = start(E2E_BASE_PORT, dir(0), false, postgres?.url(0));
  await ready(E2E_BASE_PORT, seeding);
  await stop(seeding);
  await createStaff(dir(0), postgres?.url(0));
  for (let i = 1; i < count; i++) cpSync(dir(0), dir(i), { recursive: true });
  await postgres?.cloneFirst();
  // A seeded site for tests that start a server of their own (chat-restart.spec.ts), without seeding again.
  rmSync(SEEDED_DIR, { recursive: true, force: true });
  cpSync(dir(0), SEEDED_DIR, { recursive: true });
  process.env.E2E_SEEDED_DATA_DIR = SEEDED_DIR;
  if (postgres) process.env.E2E_SEEDED_DATABASE_URL = postgres.url('seeded');
  // Each site's second brand names its own port as CDN origin, so it is added per data folder.
  await Promise.all(Array.from({ length: count }, (_, i) => addSecondSite(dir(i), sitePort(i), postgres?.url(i))));

  const sites = Array.from({ length: count }, (_, i) => start(sitePort(i), dir(i), true, postgres?.url(i)));
  await Promise.all(sites.map((site, i) => ready(sitePort(i), site)));
  await Promise.all(sites.map((_, i) => checkOnePassword(sitePort(i))));
  return async () => {
    await Promise.all(sites.map(stop));
    await postgres?.drop();
  };
}

const SEEDED_DIR = 'test-results/e2e-seeded';

/** One empty database per site on the tests' PostgreSQL server, or null when it does not answer. */
async function postgresDatabases(count: number) {
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL is required but not reachable at ${base}: ${(error as Error).message}`, { cause: error });
    console.warn(`PostgreSQL not reachable at ${base}: the browser tests' sites run on the embedded database.`);
    return null;
  }
  const name = (i: number | 'seeded') => `amora_e2e_${E2E_BASE_PORT}_${i}`;
  const names = [...Array.from({ length: count }, (_, i) => name(i)), name('seeded')];
  const dropAll = async () => {
    for (const n of names) await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
  };
  await dropAll();
  await admin.query(`CREATE DATABASE ${name(0)}`);
  return {
    url: (i: number | 'seeded') => Object.assign(new URL(base), { pathname: `/${name(i)}` }).toString(),
    /** The seeded first database, copied for every other site and kept as it is for tests that start their own. */
    cloneFirst: async () => {
      for (const n of names.slice(1)) await admin.query(`CREATE DATABASE ${n} TEMPLATE ${name(0)}`);
    },
    drop: async () => {
      await dropAll();
      await admin.end();
    },
  };
}

function start(port: number, dataDir: string, keepData: boolean, databaseUrl = ''): ChildProcess {
  return spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    stdio: 'inherit',
    env: {
      ...process.env, PORT: String(port), E2E_DATA_DIR: dataDir, E2E_KEEP_DATA: keepData ? '1' : '0', E2E_DATABASE_URL: databaseUrl,
      // The dev viewers are on, as for local work (DEV_TOOLS; scripts/e2e-server.mjs says why they answer nobody
      // there). Behind the trusted-proxy setting, tests that create many members give each its own address (signup
      // rate limit).
      TRUST_PROXY: '1', DEV_TOOLS: '1',
    },
  });
}

/**
 * An admin of every site, made with the command-line tools as on a server: browser tests approve photos with its API
 * token and sign in to the console with its password and a TOTP code (or a recovery code); and a moderator with a
 * token of their own, who decides the appeals of the admin's decisions. Every site's data is a copy
 * of the first, so each has it. What the tools print goes to the tests through the environment.
 */
async function createStaff(dataDir: string, databaseUrl = ''): Promise<void> {
  const email = 'ada.admin@example.org';
  const made = await runCli('server/cli/staff-create-cli.ts', ['--email', email, '--name', 'Ada Admin', '--role', 'admin'], dataDir, databaseUrl);
  const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(made)?.[1] ?? '';
  const recovery = [...made.matchAll(/^\s+([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})$/gm)].map((m) => m[1]);
  const token = /amora_st_\S+/.exec(await runCli('server/cli/staff-token-cli.ts', ['--staff', email, '--name', 'browser tests', '--scope', 'admin'], dataDir, databaseUrl))?.[0];
  if (!field('password') || !field('TOTP secret') || recovery.length !== 10 || !token) throw new Error(`creating the browser tests' staff member failed:\n${made}`);
  // A second moderator: an appeal goes to another staff member than the one who decided (DSA Art. 20(6)).
  const moderator = 'mo.moderator@example.org';
  await runCli('server/cli/staff-create-cli.ts', ['--email', moderator, '--name', 'Mo Moderator', '--role', 'moderator'], dataDir, databaseUrl);
  const moderatorToken = /amora_st_\S+/.exec(await runCli('server/cli/staff-token-cli.ts', ['--staff', moderator, '--name', 'browser tests', '--scope', 'moderator'], dataDir, databaseUrl))?.[0];
  if (!moderatorToken) throw new Error('creating the browser tests\' second moderator failed');
  // Finance staff of every site: the catalogue (packages, discount codes, gifts) is theirs to change.
  const finance = 'fin.finance@example.org';
  await runCli('server/cli/staff-create-cli.ts', ['--email', finance, '--name', 'Fin Finance', '--role', 'finance'], dataDir, databaseUrl);
  const financeToken = /amora_st_\S+/.exec(await runCli('server/cli/staff-token-cli.ts', ['--staff', finance, '--name', 'browser tests', '--scope', 'finance'], dataDir, databaseUrl))?.[0];
  if (!financeToken) throw new Error('creating the browser tests\' finance staff member failed');
  Object.assign(process.env, {
    E2E_STAFF_EMAIL: email, E2E_STAFF_PASSWORD: field('password'), E2E_STAFF_TOTP: field('TOTP secret'),
    E2E_STAFF_RECOVERY: recovery.join(','), E2E_STAFF_TOKEN: token, E2E_MODERATOR_TOKEN: moderatorToken, E2E_FINANCE_TOKEN: financeToken,
  });
}

function runCli(script: string, args: string[], dataDir: string, databaseUrl: string): Promise<string> {
  const cli = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  let out = '';
  cli.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  return new Promise((resolve, reject) => {
    cli.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} for ${dataDir} exited with ${code}`))));
  });
}

function addSecondSite(dataDir: string, port: number, databaseUrl = ''): Promise<void> {
  const s = SECOND_SITE;
  const args = [s.domain, '--add', '--name', s.name, '--niche', String(s.niche), '--primary', s.primary, '--secondary', s.secondary,
    '--dark', s.dark, '--logo', s.logo, '--cdn-prefix', s.cdn(port), '--entry-warning', s.entryWarning];
  const cli = spawn(process.execPath, ['--import', 'tsx', 'server/cli/sites-cli.ts', ...args], {
    stdio: 'inherit', env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
  });
  return new Promise((resolve, reject) => {
    cli.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run sites:set for ${dataDir} exited with ${code}`))));
  });
}

async function ready(port: number, site: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (site.exitCode !== null) throw new Error(`the e2e site on port ${port} exited with ${site.exitCode}`);
    try {
      if ((await fetch(`http://localhost:${port}/api/settings.php`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the e2e site on port ${port} did not start within 180 s`);
}

/**
 * A server loads its password checks (the list and the strength estimator's dictionaries) on the first new
 * password it sees: about a second of CPU on a quiet machine, far longer while other runs share the cores.
 * Browser tests are about what members see, not that first check, so each site refuses one guessable
 * password before they start (nothing is created).
 */
async function checkOnePassword(port: number): Promise<void> {
  const res = await fetch(`http://localhost:${port}/api/signup.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-type': 'client', 'x-forwarded-for': '10.254.254.254' },
    body: JSON.stringify({ email: 'first.check@example.org', name: 'First Check', password: 'Summer2024', date_of_birth: '1990-01-01', gender: 'female', country: 'NL' }),
  });
  const body = await res.text();
  if (res.status !== 400 || !body.includes('password_common')) throw new Error(`the e2e site on port ${port} answered a guessable password with ${res.status} ${body}`);
}

function stop(site: ChildProcess): Promise<void> {
  if (site.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    site.once('exit', () => resolve());
    site.kill('SIGTERM');
  });
}
