import { cpSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import type { FullConfig } from '@playwright/test';
import { E2E_BASE_PORT, SECOND_SITE, sitePort } from './site-port.ts';

/**
 * One site per worker, each on its own port and embedded database, so browser tests run side by side
 * without sharing members, rate limits or settings. Seeding the demo site takes most of a start, so
 * it runs once: the first site seeds, stops, and its data folder is copied for the others.
 */
export default async function globalSetup(config: FullConfig) {
  const count = Math.max(1, config.workers);
  const dir = (i: number) => `test-results/e2e-data-${i}`;
  for (let i = 0; i < count; i++) rmSync(dir(i), { recursive: true, force: true });

  const seeding = start(E2E_BASE_PORT, dir(0), false);
  await ready(E2E_BASE_PORT, seeding);
  await stop(seeding);
  for (let i = 1; i < count; i++) cpSync(dir(0), dir(i), { recursive: true });
  // Each site's second brand names its own port as CDN origin, so it is added per data folder.
  await Promise.all(Array.from({ length: count }, (_, i) => addSecondSite(dir(i), sitePort(i))));

  const sites = Array.from({ length: count }, (_, i) => start(sitePort(i), dir(i), true));
  await Promise.all(sites.map((site, i) => ready(sitePort(i), site)));
  await Promise.all(sites.map((_, i) => checkOnePassword(sitePort(i))));
  return async () => {
    await Promise.all(sites.map(stop));
  };
}

function start(port: number, dataDir: string, keepData: boolean): ChildProcess {
  return spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    stdio: 'inherit',
    env: {
      ...process.env, PORT: String(port), E2E_DATA_DIR: dataDir, E2E_KEEP_DATA: keepData ? '1' : '0',
      // The moderation API is on in browser tests, so they can approve photos as an operator would; the dev viewers
      // too, as for local work (DEV_TOOLS; scripts/e2e-server.mjs says why they answer nobody there). Behind the
      // trusted-proxy setting, tests that create many members give each its own address (signup rate limit).
      OPERATOR_TOKEN: process.env.OPERATOR_TOKEN ?? 'e2e-operator-token-0123456789', TRUST_PROXY: '1', DEV_TOOLS: '1',
    },
  });
}

function addSecondSite(dataDir: string, port: number): Promise<void> {
  const s = SECOND_SITE;
  const args = [s.domain, '--add', '--name', s.name, '--niche', String(s.niche), '--primary', s.primary, '--secondary', s.secondary,
    '--dark', s.dark, '--logo', s.logo, '--cdn-prefix', s.cdn(port), '--entry-warning', s.entryWarning];
  const cli = spawn(process.execPath, ['--import', 'tsx', 'server/settings/sites-cli.ts', ...args], {
    stdio: 'inherit', env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
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
