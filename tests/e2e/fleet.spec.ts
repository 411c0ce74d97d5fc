import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { freePort } from '../helpers/free-port.ts';
import { NGINX_BINARY, startNginx } from '../helpers/nginx.ts';
import { copySeededSite, startBuiltServer, type BuiltServer, type SiteCopy } from './own-site.ts';

/**
 * The fleet of deploy/ for real on this machine: two web instances and a worker (the production build) on one
 * PostgreSQL and one Redis, behind nginx with the project's own proxy configuration (deploy/nginx/amora.conf).
 * Members reach the instances only through the proxy. One web instance is killed with SIGKILL while messages and a
 * payment are under way: its members' tabs reconnect through the proxy to the other one and miss nothing.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const required = process.env.REQUIRE_POSTGRES === '1';
const CLIENT_PASSWORD = 'fleet password';

test.skip(!required && (!NGINX_BINARY || !process.env.E2E_SEEDED_DATABASE_URL), 'needs nginx and the browser tests on PostgreSQL');
if (required && !NGINX_BINARY) throw new Error('nginx is required for the fleet test: apt-get install nginx-light');

/** One production-build process in a role, on the shared database and Redis. */
function startInstance(name: string, role: 'web' | 'worker', site: SiteCopy, env: Record<string, string>): Promise<BuiltServer> {
  return startBuiltServer(name, site, { env: { HOST: '127.0.0.1', AMORA_ROLE: role, LOG_LEVEL: 'info', ...env } });
}

async function liveSockets(instance: BuiltServer): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${instance.metricsPort}/metrics`)).text();
  return Number(/^amora_live_sockets (\d+)/m.exec(text)?.[1] ?? 'NaN');
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let n = 0;
/** A new member through the proxy, with a client address of their own (nginx appends the proxy's X-Forwarded-For). */
async function member(base: string, gender: 'male' | 'female'): Promise<{ api: APIRequestContext; id: number; ip: string }> {
  const ip = `10.91.${++n}.${Math.floor(Math.random() * 250) + 1}`;
  const api = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base, 'x-forwarded-for': ip } });
  const res = await api.post('/api/signup.php', {
    data: { email: `fleet.${n}.${Date.now()}@example.org`, name: `Fleet${n}`, password: CLIENT_PASSWORD, date_of_birth: '1990-03-03', gender, country: 'NL' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { api, ip, id: ((await res.json()) as { user: { id: number } }).user.id };
}

/** Buys the largest bundle with the test provider: order, checkout paid (the provider's webhook credits it). */
async function buyCredits(api: APIRequestContext): Promise<string> {
  const { packages } = (await (await api.get('/api/packages.php')).json()) as { packages: { id: number; credits: number }[] };
  const largest = packages.reduce((a, b) => (b.credits > a.credits ? b : a));
  const key = randomUUID();
  let created: { order: { id: string }; checkout_url: string } | undefined;
  // The client retries with the same Idempotency-Key, as the app does, until an instance accepts the order.
  for (let i = 0; i < 20 && !created; i++) {
    const res = await api.post('/api/order.php', { data: { package_id: largest.id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': key } }).catch(() => null);
    if (res?.status() === 201) created = (await res.json()) as typeof created;
    else await new Promise((r) => setTimeout(r, 250));
  }
  expect(created, 'the order is accepted').toBeTruthy();
  const ref = created!.checkout_url.split('/').pop()!;
  let decided = false;
  for (let i = 0; i < 20 && !decided; i++) {
    const res = await api.post('/api/test-checkout.php', { data: { id: ref, outcome: 'paid' } }).catch(() => null);
    decided = res?.status() === 200;
    if (!decided) await new Promise((r) => setTimeout(r, 250));
  }
  expect(decided, 'the payment is accepted').toBe(true);
  return created!.order.id;
}

async function readerTab(browser: Browser, base: string, reader: { ip: string; api: APIRequestContext }): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, extraHTTPHeaders: { 'x-forwarded-for': reader.ip } });
  await context.addCookies((await reader.api.storageState()).cookies);
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  await page.goto('/chats');
  await page.getByTestId('chat-item').first().click();
  await expect(page.getByTestId('message')).toHaveCount(1);
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open');
  return page;
}

test('two web instances and a worker behind nginx: live chat across instances, an instance killed mid-load loses nothing', async ({ browser }, info) => {
  test.setTimeout(180_000);
  const site = await copySeededSite('fleet');
  const database = new pg.Client({ connectionString: site.databaseUrl });
  await database.connect();
  const nginxDir = mkdtempSync(join(tmpdir(), 'amora-nginx-'));
  const processes: ChildProcess[] = [];
  const contexts: APIRequestContext[] = [];
  try {
    const proxyPort = await freePort();
    const base = `http://localhost:${proxyPort}`;
    const shared = {
      SEED_DEMO: 'never', REDIS_URL, REDIS_PREFIX: `fleet:${randomUUID()}:`,
      PUBLIC_URL: base, TRUST_PROXY: '1', ALLOW_TEST_PAYMENTS: '1',
    };
    const worker = await startInstance('worker', 'worker', site, shared);
    const webs = [await startInstance('web1', 'web', site, shared), await startInstance('web2', 'web', site, shared)];
    processes.push(worker.child, ...webs.map((w) => w.child));
    processes.push(startNginx({ dir: nginxDir, port: proxyPort, upstreams: [webs[0].port, webs[1].port] }));
    await waitFor('nginx', async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200);
    expect((await fetch(`${base}/metrics`)).status, 'metrics stay off the public proxy').toBe(404);

    // Two readers, each written to by two senders (a member may send 20 messages a minute).
    const readers = [await member(base, 'female'), await member(base, 'female')];
    const senders = [await member(base, 'male'), await member(base, 'male'), await member(base, 'male'), await member(base, 'male')];
    contexts.push(...readers.map((r) => r.api), ...senders.map((s) => s.api));
    // The readers confirmed their e-mail address (members write only to those who did).
    await database.query("update users set status = 'active' where id = any($1::int[])", [readers.map((r) => r.id)]);
    for (const sender of senders) await buyCredits(sender.api);
    const target = (i: number) => readers[i % 2];
    // What each sender saw accepted, in order.
    const accepted: string[][] = senders.map(() => []);
    let retried = 0;
    const send = async (i: number, text: string): Promise<void> => {
      const key = randomUUID();
      // Retried with the same Idempotency-Key while the proxy answers for a lost instance (502) or nothing answers.
      for (let attempt = 0; attempt < 30; attempt++) {
        const res = await senders[i].api.post('/api/messages.php', { data: { profile_id: target(i).id, text }, headers: { 'idempotency-key': key }, timeout: 10_000 }).catch(() => null);
        // 201, or 200 for a retry whose first attempt was stored before its answer was lost.
        if (res?.status() === 201 || res?.status() === 200) {
          accepted[i].push(text);
          return;
        }
        if (res && ![502, 503, 504].includes(res.status())) throw new Error(`send answered ${res.status()}: ${await res.text()}`);
        retried++;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`"${text}" was never accepted`);
    };
    await send(0, 'Hello reader one');
    await send(1, 'Hello reader two');

    // Each reader's tab holds its live socket on another instance (the proxy deals connections round robin).
    const pages = [await readerTab(browser, base, readers[0])];
    const victim = (await liveSockets(webs[0])) === 1 ? webs[0] : webs[1];
    for (let attempt = 0; ; attempt++) {
      const page = await readerTab(browser, base, readers[1]);
      const counts = await Promise.all(webs.map(liveSockets));
      if (counts[0] === 1 && counts[1] === 1) {
        pages.push(page);
        break;
      }
      await page.context().close();
      expect(attempt, 'the proxy spreads live sockets over both instances').toBeLessThan(8);
      await waitFor('the socket to close', async () => (await Promise.all(webs.map(liveSockets))).reduce((a, b) => a + b) === 1);
    }
    // Live across instances: a send through either instance reaches both tabs at once (worker → Redis → socket).
    await send(0, 'Live one');
    await send(1, 'Live two');
    await expect(pages[0].getByTestId('message')).toHaveText([/Hello reader one/, /Live one/], { timeout: 5_000 });
    await expect(pages[1].getByTestId('message')).toHaveText([/Hello reader two/, /Live two/], { timeout: 5_000 });

    // Load: four senders at once; one web instance dies with SIGKILL in the middle, while a payment is under way.
    // The first reader's instance goes.
    const onVictim = pages[0];
    const loads = senders.map(async (_, i) => {
      for (let k = 1; k <= 8; k++) {
        await send(i, `Under load ${i}.${k}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    });
    const payer = await member(base, 'male');
    contexts.push(payer.api);
    const payment = (async () => {
      await new Promise((r) => setTimeout(r, 600));
      return buyCredits(payer.api);
    })();
    await new Promise((r) => setTimeout(r, 700));
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    const [orderId] = await Promise.all([payment, ...loads]);

    info.annotations.push({ type: 'sends retried around the loss', description: String(retried) });
    // The victim's members reconnect through the proxy to the surviving instance within 10 s, and miss nothing.
    await expect(onVictim.locator('html')).toHaveAttribute('data-live', 'open', { timeout: 10_000 - (Date.now() - killedAt) });
    const survivor = webs.find((w) => w !== victim)!;
    await waitFor('both tabs on the surviving instance', async () => (await liveSockets(survivor)) === 2, 10_000);
    for (const [i, page] of pages.entries()) {
      // The open conversation is with sender i: every message of theirs that was accepted, exactly once, in order.
      const expected = accepted[i];
      await expect(page.getByTestId('message')).toHaveCount(expected.length, { timeout: 10_000 });
      const shown = (await page.getByTestId('message').allInnerTexts()).map((t) => t.trim());
      expect(shown.length).toBe(expected.length);
      expected.forEach((text, k) => expect(shown[k]).toContain(text));
    }
    // In the database too: every accepted message once, none that was not accepted.
    const stored = await database.query('select body from messages where sender_id = any($1::int[])', [senders.map((s) => s.id)]);
    expect(stored.rows.map((r) => r.body as string).sort()).toEqual(accepted.flat().sort());

    // The payment accepted around the kill is completed and credited once.
    const order = await payer.api.get(`/api/order.php?id=${orderId}`);
    expect(((await order.json()) as { order: { status: string } }).order.status).toBe('completed');
    const orders = await database.query("select count(*)::int as n from orders where user_id = $1 and status = 'completed'", [payer.id]);
    expect(orders.rows[0].n).toBe(1);

    // Live still works on the survivor, through the proxy.
    await send(0, 'After the loss');
    await expect(pages[0].getByTestId('message').last()).toContainText('After the loss', { timeout: 5_000 });
    await pages[0].screenshot({ path: `tests/e2e/screenshots/${info.project.name}-fleet-after-instance-loss.png` });

    // A second worker started now finds this hour's jobs done: each scheduled job runs once per slot across the fleet.
    const second = await startInstance('worker2', 'worker', site, shared);
    processes.push(second.child);
    await new Promise((r) => setTimeout(r, 1500));
    const runs = await database.query('select job, slot, count(*)::int as n from job_runs group by job, slot');
    expect(runs.rows.length).toBeGreaterThan(0);
    for (const row of runs.rows) expect(row.n, `${row.job} ${row.slot}`).toBe(1);
    expect(second.output()).not.toMatch(/error/i);
  } finally {
    for (const api of contexts) await api.dispose().catch(() => undefined);
    for (const child of processes) child.kill('SIGKILL');
    await database.end().catch(() => undefined);
    await site.drop().catch(() => undefined);
    rmSync(nginxDir, { recursive: true, force: true });
  }
});
