import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../env.ts';
import { devToolsNotice } from '../dev-tools/dev-tools.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';
import { freePort, prepareServerDatabase, startServer } from '../../tests/helpers/server-process.ts';

const FORWARDING = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'via'];
const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

/** The pages of both viewers, with a mail and a text message in them. */
async function viewerPaths(t: TestApp): Promise<string[]> {
  const { user } = await signUp(t);
  await t.client({ ip: '203.0.113.30' }).post('/api/password-reset.php', { email: user.email });
  await t.smsOutbox!.send({ to: '+31612345678', text: 'Your code is 123456', kind: 'direct_debit_code' });
  const id = t.outbox!.list().find((m) => m.to === user.email)!.id;
  return ['/dev/outbox', '/dev/outbox/mails.json', `/dev/outbox/${id}`, `/dev/outbox/${id}/html`, '/dev/sms', '/dev/sms/messages.json'];
}

const expectGone = (res: { status: number; body: unknown }, label: string) => {
  expect(res.status, label).toBe(404);
  expect(JSON.stringify(res.body), label).not.toMatch(/token=|reset-password|123456/);
};

/**
 * Behind a reverse proxy that adds no forwarding header, with TRUST_PROXY=0, every request reaches the server from
 * loopback with no sign of the proxy: /dev/outbox and /dev/sms served everyone's reset links and payment codes.
 * They are off unless DEV_TOOLS=1, and never on a public deployment.
 */
describe.each(DATABASE_KINDS)('the dev viewers need DEV_TOOLS=1 and a deployment that is not public (%s)', (kind) => {
  let off: TestApp;
  let on: TestApp;
  let publicUrl: TestApp;
  beforeAll(async () => {
    off = await createTestApp(kind, { profiles: 0, outbox: true, env: { DEV_TOOLS: '0' } });
    on = await createTestApp(kind, { profiles: 0, outbox: true, env: { DEV_TOOLS: '1' } });
    publicUrl = await createTestApp(kind, { profiles: 0, outbox: true, env: { DEV_TOOLS: '1', PUBLIC_URL: 'https://amora.example' } });
  }, 180_000);
  afterAll(async () => {
    await Promise.all([off.close(), on.close(), publicUrl.close()]);
  });

  it('with the flag off, they answer 404 even from loopback without any header', async () => {
    for (const path of await viewerPaths(off)) {
      for (const ip of LOOPBACK) expectGone(await off.client({ ip }).get(path), `${ip} ${path}`);
    }
  });

  it('with the flag on, they answer the operator on this machine as before, and nobody through a proxy', async () => {
    const paths = await viewerPaths(on);
    for (const ip of LOOPBACK) {
      for (const path of paths) expect((await on.client({ ip }).get(path)).status, `${ip} ${path}`).toBe(200);
      const sms = await on.client({ ip }).get('/dev/sms/messages.json?to=%2B31612345678');
      expect(sms.body.messages.map((m: { text: string }) => m.text)).toEqual(['Your code is 123456']);
    }
    for (const header of FORWARDING) {
      const viaProxy = on.client({ ip: '127.0.0.1', headers: { [header]: header === 'forwarded' ? 'for=203.0.113.7' : '203.0.113.7' } });
      for (const path of paths) expectGone(await viaProxy.get(path), `${header} ${path}`);
    }
    for (const path of paths) expectGone(await on.client({ ip: '203.0.113.7' }).get(path), `outsider ${path}`);
  });

  it('on a public deployment they stay off even with the flag: a public PUBLIC_URL', async () => {
    for (const path of await viewerPaths(publicUrl)) {
      for (const ip of LOOPBACK) expectGone(await publicUrl.client({ ip }).get(path), `${ip} ${path}`);
    }
  });

  it('on a public deployment they stay off even with the flag: a public site domain, from the moment it is added', async () => {
    const paths = await viewerPaths(on);
    expect((await on.client({ ip: '127.0.0.1' }).get('/dev/outbox/mails.json')).status).toBe(200);
    await on.services.settings.addSite({ domain: 'amora.example' });
    for (const path of paths) expectGone(await on.client({ ip: '127.0.0.1' }).get(path), path);
  });
});

describe('DEV_TOOLS at start', () => {
  const env = (vars: Record<string, string>) => loadEnv({ NODE_ENV: 'production', ...vars });
  const viewers = ['/dev/outbox', '/dev/sms'];

  it('is off unless set, and only 0, 1, true or false', () => {
    expect(env({}).DEV_TOOLS).toBe(false);
    expect(env({ DEV_TOOLS: '0' }).DEV_TOOLS).toBe(false);
    expect(env({ DEV_TOOLS: '1' }).DEV_TOOLS).toBe(true);
    expect(env({ DEV_TOOLS: 'true' }).DEV_TOOLS).toBe(true);
    expect(() => env({ DEV_TOOLS: 'yes' })).toThrow(/DEV_TOOLS/);
  });

  it('says when the viewers are on, and when the flag is ignored', () => {
    expect(devToolsNotice({ env: env({}), isPublic: false, viewers })).toBeNull();
    expect(devToolsNotice({ env: env({ DEV_TOOLS: '1' }), isPublic: false, viewers })).toEqual({
      level: 'info', message: 'DEV_TOOLS=1: /dev/outbox and /dev/sms are on for the operator on this machine (loopback, no proxy).',
    });
    expect(devToolsNotice({ env: env({ DEV_TOOLS: '1' }), isPublic: true, viewers })).toEqual({
      level: 'error', message: 'DEV_TOOLS=1 is ignored on a public deployment: /dev/outbox and /dev/sms stay off.',
    });
    expect(devToolsNotice({ env: env({ DEV_TOOLS: '1', TRUST_PROXY: '1' }), isPublic: false, viewers })?.message).toContain('answer nobody');
    // With SMTP_URL and SMS_URL there is no viewer to speak of.
    expect(devToolsNotice({ env: env({ DEV_TOOLS: '1' }), isPublic: false, viewers: [] })).toBeNull();
  });
});

/** GET over a real TCP connection from loopback, with no header but Host: what a proxy that adds none sends. */
function plainGet(port: number, path: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { host: `localhost:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    }).on('error', reject);
  });
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe.each(DATABASE_KINDS)('a real start with DEV_TOOLS=1 (%s)', (kind) => {
  const start = async (vars: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'amora-devtools-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const prepared = await prepareServerDatabase(kind, dataDir);
    cleanups.push(prepared.cleanup);
    const port = await freePort();
    const server = startServer({ ...prepared.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...vars });
    cleanups.push(async () => {
      if (server.child.exitCode !== null) return;
      server.child.kill('SIGTERM');
      await server.exited;
    });
    await server.ready;
    return { port, output: server.output };
  };

  const paths = ['/dev/outbox', '/dev/outbox/mails.json', '/dev/sms', '/dev/sms/messages.json'];

  it('with the flag, a plain loopback request reaches both viewers, and the start says they are on', async () => {
    const dev = await start({ DEV_TOOLS: '1' });
    for (const path of paths) expect((await plainGet(dev.port, path)).status, path).toBe(200);
    expect(dev.output()).toContain('DEV_TOOLS=1: /dev/outbox and /dev/sms are on for the operator on this machine');
  }, 180_000);
});
