import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, ne } from 'drizzle-orm';
import sharp from 'sharp';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { messages, outbox, users } from '../../server/db/schema.ts';
import { addCredits } from '../../server/credits/ledger.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { freePort, prepareServerDatabase, startServer } from '../helpers/server-process.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { languageIso, LOCALE_COOKIE, type Language } from '../../common/languages.ts';
import { loadLocales } from '../../server/i18n/i18n.ts';
import { SERVER_BUILD_PATH } from '../../server/paths.ts';

/**
 * docs/operations.md's "When a service is away", for real: a built server runs with PostgreSQL, Redis, the mail
 * server and the photo bucket each behind a TCP proxy this test controls, and each is taken away under traffic.
 */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const pgTemplate = inject('pgTemplate');
const redisUrl = inject('redisUrl');

/** A bucket in memory: PUT, GET and DELETE of path-style keys (the signature is the storage unit test's concern). */
async function startFakeBucket(): Promise<{ server: Server; port: number }> {
  const objects = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = req.url!;
    if (req.method === 'PUT') {
      objects.set(key, Buffer.concat(chunks));
      return void res.writeHead(200).end();
    }
    if (req.method === 'GET') {
      const body = objects.get(key);
      return void (body ? res.writeHead(200, { 'content-type': 'image/webp' }).end(body) : res.writeHead(404).end());
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      return void res.writeHead(204).end();
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

interface Outcome { status: number; ms: number; retryAfter: string | null; code?: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!pgTemplate || !redisUrl)('a server whose services go away', { timeout: 60_000 }, () => {
  let base = '';
  let database: Database;
  let smtp: TestSmtp;
  let demoId = 0;
  let recipientId = 0;
  const proxies = {} as Record<'postgres' | 'redis' | 'smtp' | 's3', TcpProxy>;
  let cookie = '';
  let output = () => '';

  const headers = (extra: Record<string, string> = {}) => ({ 'x-request-type': 'client', host: 'localhost', ...(cookie ? { cookie } : {}), ...extra });

  async function call(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Outcome & { json: unknown }> {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method,
      headers: headers(body === undefined || body instanceof FormData ? extra : { 'content-type': 'application/json', ...extra }),
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the assertions say so
    }
    return { status: res.status, ms, retryAfter: res.headers.get('retry-after'), code: (json as { error?: { code?: string } } | null)?.error?.code, json };
  }

  async function signIn() {
    const login = await fetch(`${base}/api/user.php`, {
      method: 'POST', headers: { ...headers(), 'content-type': 'application/json' }, body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  }

  async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
    const started = performance.now();
    for (;;) {
      if (await check().catch(() => false)) return performance.now() - started;
      if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms\n${output().slice(-3000)}`);
      await sleep(100);
    }
  }

  const send = (key: string) => call('POST', '/api/messages.php', { profile_id: recipientId, text: `fault test ${key}` }, { 'idempotency-key': key });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-faults-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const prepared = await prepareServerDatabase('postgres', dir);
    cleanups.push(prepared.cleanup);
    database = await openDatabase({ url: prepared.env.DATABASE_URL });
    cleanups.push(() => database.close());
    // The demo member is premium with credits to spare, so that every message the load sends can be accepted.
    const [demo] = await database.db.update(users).set({ paidUser: true }).where(eq(users.email, DEMO_EMAIL)).returning({ id: users.id });
    demoId = demo.id;
    await database.db.transaction((tx) => addCredits(tx, demoId, 100_000, 'demo_grant', `faults-${demoId}`));
    const [other] = await database.db.select({ id: users.id }).from(users).where(ne(users.id, demoId)).limit(1);
    recipientId = other.id;

    smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const bucket = await startFakeBucket();
    cleanups.push(() => new Promise((resolve) => bucket.server.close(resolve)));
    const pgUrl = new URL(prepared.env.DATABASE_URL);
    const redis = new URL(redisUrl!);
    proxies.postgres = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    proxies.redis = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    proxies.smtp = await startTcpProxy({ port: Number(new URL(smtp.url).port) });
    proxies.s3 = await startTcpProxy({ port: bucket.port });
    for (const proxy of Object.values(proxies)) cleanups.push(() => proxy.close());

    const port = await freePort();
    const server = startServer({
      NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dir, SEED_DEMO: 'never', LOG_LEVEL: 'info',
      DATABASE_URL: Object.assign(new URL(prepared.env.DATABASE_URL), { host: proxies.postgres.address }).toString(),
      REDIS_URL: `redis://${proxies.redis.address}`, REDIS_PREFIX: `faults${process.pid}:`,
      SMTP_URL: `smtp://${proxies.smtp.address}`, MAIL_FROM: 'Amora <no-reply@example.com>',
      S3_ENDPOINT: `http://${proxies.s3.address}`, S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'AKIDFAULTS', S3_SECRET_ACCESS_KEY: 'secret-for-the-fault-test',
      // A failed mail is tried again soon after its back-off, not at the next 30 s poll. No statement timeout: the
      // server notices a database that went silent by asking it (server/db/reachability.ts), not by cutting statements.
      OUTBOX_POLL_MS: '300',
    });
    cleanups.push(() => server.child.kill('SIGKILL'));
    output = server.output;
    await server.ready;
    base = `http://127.0.0.1:${port}`;
    await signIn();
  });

  // The server renders pages from the build (npm run build), which `npm test` makes before this phase. A bare
  // `vitest run` on a checkout never built skips it; the same answers are checked in-process on both databases (server/pages-unavailable.test.ts) and in
  // the browser (tests/e2e/unavailable.spec.ts).
  it.skipIf(!existsSync(SERVER_BUILD_PATH))('PostgreSQL away: pages and their .data answer 503 with Retry-After, say so in the visitor\'s language, and come back', async () => {
    const page = async (path: string, lang: Language, signedIn: boolean) => {
      const started = performance.now();
      const member = cookie.split('; ').filter((c) => !c.startsWith(`${LOCALE_COOKIE}=`));
      const res = await fetch(`${base}${path}`, {
        headers: { host: 'localhost', cookie: [...(signedIn ? member : []), `${LOCALE_COOKIE}=${lang}`].join('; ') }, signal: AbortSignal.timeout(15_000),
      });
      const text = (await res.text()).replaceAll('<!-- -->', '');
      return { status: res.status, retryAfter: res.headers.get('retry-after'), cacheControl: res.headers.get('cache-control'), text, ms: performance.now() - started };
    };
    const says = (lang: Language) => {
      const table = loadLocales()[lang] as { errors: { unavailable: string }; error_page: { try_again: string } };
      return { message: table.errors.unavailable, tryAgain: table.error_page.try_again };
    };
    // A member's page (the session is read first) and a visitor's (the page's loaders read), as documents and as the
    // client's data requests after a navigation.
    const requests = [
      { path: '/members', lang: 'nl', signedIn: true },
      { path: '/members.data', lang: 'nl', signedIn: true },
      { path: '/', lang: 'de', signedIn: false },
      { path: '/_.data', lang: 'de', signedIn: false },
    ] as const;
    let last = '';
    const answers = async (r: (typeof requests)[number]) => {
      const answer = await page(r.path, r.lang, r.signedIn);
      last = `${answer.status} ${answer.text.slice(0, 300)}`;
      return answer.status === 200;
    };
    for (const r of requests) await waitFor(`${r.path} before the cut`, () => answers(r), 10_000).catch((error: Error) => { throw new Error(`${error.message}\nlast answer: ${last}`); });

    proxies.postgres.cut('partition');
    try {
      for (const r of requests) {
        const answer = await page(r.path, r.lang, r.signedIn);
        const { message, tryAgain } = says(r.lang);
        expect({ path: r.path, status: answer.status, retryAfter: answer.retryAfter, cacheControl: answer.cacheControl })
          .toEqual({ path: r.path, status: 503, retryAfter: '2', cacheControl: 'no-store' });
        expect(answer.ms, r.path).toBeLessThan(2_500);
        expect(answer.text, r.path).toContain(message);
        // The document is the visitor's page: their language, the way to try again, the translations to hydrate with.
        if (!r.path.endsWith('.data')) {
          expect(answer.text).toContain(`<html lang="${languageIso(r.lang)}"`);
          expect(answer.text).toContain(`>${tryAgain}</a>`);
          expect(answer.text).toMatch(new RegExp(`data-translations="" data-lang="${r.lang}"`));
        }
      }
    } finally {
      proxies.postgres.restore();
    }
    for (const r of requests) await waitFor(`${r.path} again`, async () => (await page(r.path, r.lang, r.signedIn)).status === 200, 10_000);
  });

  it('PostgreSQL away under load: every request answers within 2 s, refusals are 503 with Retry-After, /readyz fails, no accepted write is lost, and it recovers', async () => {
    expect((await call('GET', '/readyz')).status).toBe(200);
    const outcomes: (Outcome & { phase: 'cut' | 'other'; key?: string })[] = [];
    let phase: 'cut' | 'other' = 'other';
    let stop = false;
    let n = 0;
    const SENDS = 18;
    let nextSendAt = 0;
    // Six clients at once, reading the member over and over, and between them a message every 300 ms: before, during
    // and after the cut, and fewer than the member's 20 a minute (a fast machine would otherwise meet the rate limit,
    // a 429 that is no fault's doing).
    const clients = Array.from({ length: 6 }, async (_, client) => {
      while (!stop) {
        const at = phase;
        if (n < SENDS && performance.now() >= nextSendAt) {
          nextSendAt = performance.now() + 300;
          const key = `postgres-${client}-${n++}`;
          const sent = await send(key);
          outcomes.push({ ...sent, phase: at === 'cut' || phase === 'cut' ? 'cut' : 'other', key });
          if (sent.status >= 500) await sleep(50);
        }
        const read = await call('GET', '/api/user.php');
        outcomes.push({ ...read, phase: at === 'cut' || phase === 'cut' ? 'cut' : 'other' });
        if (read.status >= 500) await sleep(50);
      }
    });
    await sleep(800);
    // The network drops: open connections go silent, in both directions, and new ones are accepted but never answered.
    phase = 'cut';
    proxies.postgres.cut('partition');
    await sleep(3_000);
    const readyz = await call('GET', '/readyz');
    expect(readyz.status).toBe(503);
    expect((readyz.json as { checks: Record<string, string> }).checks.database).toMatch(/^failing/);
    // And then it refuses outright (a stopped server).
    proxies.postgres.cut('refuse');
    await sleep(1_000);
    const returned = performance.now();
    proxies.postgres.restore();
    phase = 'other';
    const recovered = await waitFor('answering again', async () => (await call('GET', '/api/user.php')).status === 200, 10_000);
    expect(recovered).toBeLessThan(10_000);
    await waitFor('/readyz again', async () => (await call('GET', '/readyz')).status === 200, 10_000 - (performance.now() - returned));
    stop = true;
    await Promise.all(clients);

    const duringCut = outcomes.filter((o) => o.phase === 'cut');
    expect(duringCut.length).toBeGreaterThan(6);
    // None hangs: the slowest answer while the database was away came within 2 s (and a little for a busy machine).
    expect(Math.max(...duringCut.map((o) => o.ms))).toBeLessThan(2_500);
    const refused = outcomes.filter((o) => o.status >= 500);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect({ status: o.status, code: o.code, retryAfter: o.retryAfter }).toEqual({ status: 503, code: 'unavailable', retryAfter: '2' });
    expect(outcomes.filter((o) => o.status >= 400 && o.status < 500)).toEqual([]);

    // Every message the server accepted (201) is in the database.
    const accepted = outcomes.filter((o) => o.key && o.status === 201).map((o) => o.key!);
    expect(accepted.length).toBeGreaterThan(0);
    const stored = await database.db.select({ key: messages.idempotencyKey }).from(messages)
      .where(and(eq(messages.senderId, demoId), inArray(messages.idempotencyKey, accepted)));
    expect(stored.map((s) => s.key).sort()).toEqual([...accepted].sort());
  });

  it('Redis away: reads and writes go on, rate limits count on this instance, live sockets close and tabs poll', async () => {
    proxies.redis.cut('refuse');
    try {
      const me = await call('GET', '/api/user.php');
      expect(me.status).toBe(200);
      expect((await send('redis-down-1')).status).toBe(201);
      expect((await call('GET', '/readyz')).json).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: expect.stringMatching(/^degraded/) } });
      // Failed log-ins for one address: the pair's limit (5 in 15 minutes) still holds, counted here.
      const attempts: number[] = [];
      for (let i = 0; i < 6; i++) {
        attempts.push((await call('POST', '/api/user.php', { email: 'nobody-faults@example.com', password: 'wrong password' })).status);
      }
      expect(attempts.slice(0, 5).every((s) => s !== 429 && s < 500), String(attempts)).toBe(true);
      expect(attempts[5]).toBe(429);
      // The live socket cannot subscribe: it closes, and the tab falls back to polling (which answers).
      const closed = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`, { headers: { cookie, origin: 'http://localhost', host: 'localhost' } });
        ws.on('close', (code) => resolve(code));
        ws.on('error', reject);
      });
      expect(closed).toBe(1011);
      expect((await call('GET', '/api/chats.php')).status).toBe(200);
    } finally {
      proxies.redis.restore();
    }
    // Back: a live socket opens again (within the fallback's few seconds).
    await waitFor('live socket ready', () => new Promise<boolean>((resolve) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`, { headers: { cookie, origin: 'http://localhost', host: 'localhost' } });
      ws.on('message', (data) => {
        ws.close();
        resolve(JSON.parse(String(data)).type === 'ready');
      });
      ws.on('close', () => resolve(false));
      ws.on('error', () => resolve(false));
    }), 10_000);
  });

  it('the photo bucket away: uploads answer 503, photos already served still are (from the cache)', async () => {
    const image = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#3a9' } }).jpeg().toBuffer();
    const upload = () => {
      const form = new FormData();
      form.set('photo', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'me.jpg');
      return call('POST', '/api/photos.php', form);
    };
    const first = await upload();
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    const { filename } = (first.json as { photo: { filename: string } }).photo;
    const photo = () => fetch(`${base}/photos/${filename}`, { headers: headers() });
    expect((await photo()).status).toBe(200);

    proxies.s3.cut('blackhole');
    try {
      const cached = await photo();
      expect(cached.status).toBe(200);
      expect(cached.headers.get('content-type')).toBe('image/webp');
      const refused = await upload();
      expect({ status: refused.status, code: refused.code, retryAfter: refused.retryAfter }).toEqual({ status: 503, code: 'unavailable', retryAfter: '2' });
      expect(refused.ms).toBeLessThan(5_000);
    } finally {
      proxies.s3.restore();
    }
    expect((await upload()).status).toBe(201);
  });

  it('the mail server away: the mail waits in the outbox and goes out once, after it returns', async () => {
    const queued = () => database.db.select().from(outbox).where(eq(outbox.subscriber, 'mail.queued'));
    proxies.smtp.cut('refuse');
    try {
      // The request that asks for the mail succeeds: the mail waits.
      expect((await call('POST', '/api/password-reset.php', { email: DEMO_EMAIL })).status).toBe(200);
      // The outbox tried it again, failed, and keeps it for its next try.
      await waitFor('a failed attempt', async () => {
        const rows = await queued();
        return rows.length === 1 && rows[0].attempts >= 1 && !rows[0].dead && Boolean(rows[0].lastError);
      }, 10_000).catch(async (error: unknown) => {
        throw new Error(`${String(error)}\noutbox: ${JSON.stringify(await database.db.select().from(outbox))}`);
      });
      expect(smtp.to(DEMO_EMAIL)).toEqual([]);
    } finally {
      proxies.smtp.restore();
    }
    await smtp.waitFor(DEMO_EMAIL, () => true, 15_000);
    await waitFor('the outbox emptied', async () => (await queued()).length === 0, 5_000);
    await sleep(500);
    expect(smtp.to(DEMO_EMAIL)).toHaveLength(1);
  });
});
