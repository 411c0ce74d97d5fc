import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import pg from 'pg';
import { freePort } from '../helpers/free-port.ts';


/**
 * A copy of the seeded site (tests/e2e/global-setup.ts): its data folder, and its PostgreSQL database when the
 * browser tests run on one (else the embedded database in the folder). Both survive a restart.
 */
async function seededSite(): Promise<{ dataDir: string; databaseUrl: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-restart-'));
  cpSync(process.env.E2E_SEEDED_DATA_DIR!, dataDir, { recursive: true });
  const seeded = process.env.E2E_SEEDED_DATABASE_URL;
  if (!seeded) return { dataDir, databaseUrl: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const url = new URL(seeded);
  const template = url.pathname.slice(1);
  const name = `${template}_restart_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: seeded.replace(`/${template}`, '/postgres') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  url.pathname = `/${name}`;
  return {
    dataDir, databaseUrl: url.toString(),
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The production build on its own port, on the copy of the seeded site. */
async function startSite(port: number, site: { dataDir: string; databaseUrl: string }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['build/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: String(port), DATA_DIR: site.dataDir, DATABASE_URL: site.databaseUrl,
      // As for every browser test's site (scripts/e2e-server.mjs): a busy test machine is not an overloaded site.
      ADMISSION_TARGET_MS: '0', ADMISSION_MAX_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listens on')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.once('exit', (code) => reject(new Error(`site exited with ${code}:\n${out}`)));
  });
  return child;
}

async function stopSite(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('an open conversation misses nothing across a server restart', async ({ page }, info) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const copy = await seededSite();
  const base = `http://localhost:${port}`;
  // While the server is down the browser logs its refused reconnection attempts; anything else is an error.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/ERR_CONNECTION_REFUSED/.test(m.text())) errors.push(m.text());
  });
  let site = await startSite(port, copy);
  let sender = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  try {
    // The demo member reads; a new member writes (the demo site's first messages are free).
    await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
    const login = await page.request.post(`${base}/api/user.php`, { data: { email: 'demo@example.com', password: 'amora-demo' }, headers: { origin: base } });
    expect(login.status(), await login.text()).toBe(200);
    const demoId = ((await login.json()) as { user: { id: number } }).user.id;
    const signup = await sender.post('/api/signup.php', {
      data: { email: `restart.${Date.now()}@example.org`, name: 'Robin', password: 'first password', date_of_birth: '1990-03-03', gender: 'male', country: 'NL' },
    });
    expect(signup.status(), await signup.text()).toBe(201);
    const send = async (text: string) => {
      const res = await sender.post('/api/messages.php', { data: { profile_id: demoId, text }, headers: { 'idempotency-key': `restart-${text.length}-${Date.now()}` } });
      expect(res.status(), await res.text()).toBe(201);
    };
    await send('Before the restart');

    await page.goto(`${base}/chats`);
    await page.getByTestId('chat-item').first().click();
    await expect(page.getByTestId('message')).toHaveText([/Before the restart/]);
    await expect(page.locator('html')).toHaveAttribute('data-live', 'open');

    // The server goes down and comes back on the same database; a message arrives before the tab has reconnected.
    await stopSite(site);
    await expect(page.locator('html')).toHaveAttribute('data-live', 'closed');
    site = await startSite(port, copy);
    // The sender's kept-alive connections died with the old process: a new context with the same session.
    const session = await sender.storageState();
    await sender.dispose();
    sender = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base }, storageState: session });
    await send('Right after the restart');
    // The tab reconnects by itself and fetches what it missed, without a reload and long before the next poll.
    await expect(page.locator('html')).toHaveAttribute('data-live', 'open', { timeout: 20_000 });
    await expect(page.getByTestId('message')).toHaveText([/Before the restart/, /Right after the restart/], { timeout: 5_000 });
    // And the live channel works again.
    await send('Live again');
    await expect(page.getByTestId('message')).toHaveCount(3);
    await page.screenshot({ path: `tests/e2e/screenshots/${info.project.name}-chat-after-restart.png` });
    expect(errors, 'browser errors').toEqual([]);
  } finally {
    await sender.dispose();
    await stopSite(site).catch(() => undefined);
    await copy.drop();
  }
});
