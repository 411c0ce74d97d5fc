import type { Admission } from '../../server/http/admission.ts';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp } from '../../server/app.ts';
import { registerMetrics, registerSubscribers } from '../../server/subscribers.ts';
import { createMetrics, type Metrics } from '../../server/infra/metrics.ts';
import { createReadiness, type Readiness } from '../../server/infra/readiness.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seedDemoSite } from '../../server/seed/seed.ts';
import { loadEnv } from '../../server/env.ts';
import { createTranslator, type Translator } from '../../server/i18n/i18n.ts';
import { createLogger, type Logger } from '../../server/infra/logger.ts';
import { createServices } from '../../server/services.ts';
import type { Services } from '../../server/use-cases.ts';
import { createOutboxMailer, createSmtpMailer } from '../../server/infra/mail/transport.ts';
import { createOutboxSmsSender } from '../../server/infra/sms/sms.ts';
import { eq } from 'drizzle-orm';
import * as schema from '../../server/db/schema.ts';
import { users } from '../../server/db/schema.ts';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Db } from '../../server/db/client.ts';
import { localStorage } from '../../server/infra/storage.ts';
import { checkContracts } from './contract-check.ts';
import { pageBuild } from './page-build.ts';
import { pagesHandler } from '../../server/pages.ts';
import type { MemberActor } from '../../server/actor.ts';
import { AUTH_COOKIE } from '../../common/constants.ts';
import { LOCALE_COOKIE } from '../../common/languages.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when the server is reachable. */
export const DATABASE_KINDS: DatabaseKind[] = inject('pgTemplate') ? ['pglite', 'postgres'] : ['pglite'];

let counter = 0;
/** The migrated empty database of tests/global-setup.ts, read once per worker. */
let snapshot: Blob | undefined;

/** A fresh, migrated database: in-memory PGlite, or a clone of the PostgreSQL template. */
export async function freshDatabase(kind: DatabaseKind): Promise<Database & { drop(): Promise<void> }> {
  if (kind === 'pglite') {
    snapshot ??= new Blob([readFileSync(inject('pgliteSnapshot'))]);
    const database = await openDatabase({ dataDir: null, snapshot });
    return { ...database, drop: async () => database.close() };
  }
  const clone = await clonePostgresTemplate();
  const database = await openDatabase({ url: clone.url });
  return {
    ...database,
    drop: async () => {
      await database.close();
      await clone.drop();
    },
  };
}

/** Runs one statement (CREATE or DROP DATABASE) on the test server's administrative database. */
export async function postgresAdmin(statement: string): Promise<void> {
  const info = inject('pgTemplate');
  if (!info) throw new Error('PostgreSQL is not available');
  const client = new pg.Client({ connectionString: info.baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database cloned from the migrated template (or `template`) in milliseconds, and how to drop it. */
export async function clonePostgresTemplate(template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const info = inject('pgTemplate');
  if (!info) throw new Error('PostgreSQL is not available');
  const name = `${info.template}_${process.pid}_${++counter}_${Date.now() % 100000}`;
  const admin = postgresAdmin;
  await admin(`CREATE DATABASE ${name} TEMPLATE ${template ?? info.template}`);
  const url = new URL(info.baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

interface SeedOptions { profileCount: number; freeMessages: number }
type Seeded = Awaited<ReturnType<typeof seedDemoSite>>;
/** A seeded database kept per worker: a PGlite snapshot or a PostgreSQL template, with the photos its rows name. */
interface SeededCopy { kind: DatabaseKind; snapshot?: Blob; template?: string; photosDir: string; seeded: Seeded }
const seededCopies = new Map<string, Promise<SeededCopy>>();

/**
 * A fresh database seeded as the demo site with these options, and its photos in `photosDir`. The seed (its photos
 * drawn and encoded) runs once per worker and options; every later test app starts from a copy of that database,
 * which takes a fraction of seeding again. The seed is deterministic (its clock and random numbers are fixed).
 */
async function seededDatabase(kind: DatabaseKind, seed: SeedOptions, photosDir: string) {
  const key = `${kind}:${seed.profileCount}:${seed.freeMessages}`;
  let copy = seededCopies.get(key);
  if (!copy) {
    copy = seedCopy(kind, seed);
    seededCopies.set(key, copy);
    copy.catch(() => seededCopies.delete(key));
  }
  const { snapshot, template, photosDir: seedPhotos, seeded } = await copy;
  cpSync(seedPhotos, photosDir, { recursive: true });
  if (snapshot) {
    const database = await openDatabase({ dataDir: null, snapshot });
    return { database: { ...database, drop: async () => database.close() }, seeded };
  }
  const clone = await clonePostgresTemplate(template);
  const database = await openDatabase({ url: clone.url });
  return { database: { ...database, drop: async () => { await database.close(); await clone.drop(); } }, seeded };
}

async function seedCopy(kind: DatabaseKind, seed: SeedOptions): Promise<SeededCopy> {
  const photosDir = mkdtempSync(join(tmpdir(), 'amora-seed-photos-'));
  process.once('exit', () => rmSync(photosDir, { recursive: true, force: true }));
  if (kind === 'pglite') {
    const database = await freshDatabase(kind);
    try {
      const seeded = await seedDemoSite(database.db, { photosDir, clock: testClock(), ...seed });
      const client = (database.db as unknown as { $client: PGlite }).$client;
      return { kind, snapshot: await client.dumpDataDir('none'), photosDir, seeded };
    } finally {
      await database.drop();
    }
  }
  // A template database must have no connections while it is copied: seeded, then closed, then only cloned. The
  // global teardown drops it with the other databases named after the migrated template.
  const clone = await clonePostgresTemplate();
  const database = await openDatabase({ url: clone.url });
  try {
    const seeded = await seedDemoSite(database.db, { photosDir, clock: testClock(), ...seed });
    return { kind, template: clone.name, photosDir, seeded };
  } finally {
    await database.close();
  }
}

/** A clock tests can move. */
export function testClock(start = '2026-06-01T12:00:00Z') {
  let now = new Date(start);
  const clock = () => new Date(now);
  return Object.assign(clock, {
    set: (iso: string) => { now = new Date(iso); },
    advance: (ms: number) => { now = new Date(now.getTime() + ms); },
  });
}

let translator: Promise<Translator> | undefined;

export interface TestApp {
  app: ReturnType<typeof createApp>;
  services: Services;
  database: Database;
  clock: ReturnType<typeof testClock>;
  siteId: number;
  demoUserId: number;
  photosDir: string;
  /** The dev outbox, when created with { outbox: true }. */
  outbox?: ReturnType<typeof createOutboxMailer>;
  /** The dev SMS outbox, when created with { outbox: true }. */
  smsOutbox?: ReturnType<typeof createOutboxSmsSender>;
  /** The operations endpoints' parts, when created with { operations: true }. */
  operations?: { readiness: Readiness; metrics: Metrics };
  /** ip: the TCP peer's address (by default a loopback address of its own per client). */
  client(options?: { host?: string; headers?: Record<string, string>; ip?: string }): TestClient;
  close(): Promise<void>;
}

/**
 * The whole API in-process (no port), on a fresh seeded database. Every answer of the JSON API is checked
 * against its contract (common/contracts): one outside it fails the test, unless { contracts: false }.
 */
export async function createTestApp(
  kind: DatabaseKind,
  options: {
    profiles?: number; smtpUrl?: string; env?: Record<string, string>; logger?: Logger; outbox?: boolean; freeMessages?: number; contracts?: boolean;
    /** Serve the pages too (React Router, assembled in-process: tests/helpers/page-build.ts). */
    pages?: boolean;
    /** Serve /healthz, /readyz and /metrics, and count requests. */
    operations?: boolean;
    /** Admission control with these limits (docs/decisions/078). */
    admission?: Admission;
  } = {},
): Promise<TestApp> {
  const clock = testClock();
  const photosDir = mkdtempSync(join(tmpdir(), 'amora-photos-'));
  // Free messages are off unless a test turns them on: most tests are about what messages cost.
  const { database, seeded } = await seededDatabase(kind, { profileCount: options.profiles ?? 30, freeMessages: options.freeMessages ?? 0 }, photosDir);
  // With outbox, the dev viewers are on (DEV_TOOLS=1) unless the test's env says otherwise, as for local work.
  const env = loadEnv({ NODE_ENV: 'test', ...(options.outbox ? { DEV_TOOLS: '1' } : {}), ...options.env, ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}) });
  // With smtpUrl, mail really goes over SMTP (to a test server); with outbox, to the dev outbox (and its
  // viewer), as text messages go to the dev SMS outbox; otherwise both stay in memory.
  const outbox = options.outbox && !options.smtpUrl ? createOutboxMailer(join(photosDir, 'outbox')) : undefined;
  const smsOutbox = options.outbox ? createOutboxSmsSender(join(photosDir, 'sms-outbox')) : undefined;
  const mail = options.smtpUrl ? { mailer: createSmtpMailer(options.smtpUrl), from: env.MAIL_FROM } : outbox ? { mailer: outbox } : undefined;
  const services = createServices({ db: database.db, clock, storage: localStorage(photosDir), logger: createLogger('error'), mail, sms: smsOutbox, config: env });
  translator ??= createTranslator();
  registerSubscribers(services, await translator);
  const operations = options.operations
    ? { readiness: createReadiness({ db: database.db }), metrics: createMetrics({ db: database.db, pool: () => database.poolStats() }) }
    : undefined;
  if (operations) registerMetrics(services, operations.metrics);
  const stopOutbox = services.events.start(100);
  const app = createApp({
    services, translator: await translator, env, logger: options.logger ?? createLogger('silent'), outbox, smsOutbox, operations, admission: options.admission,
    // The production mode: errors reach the log (and fail the test) and stay out of the pages, as in production.
    pages: options.pages ? pagesHandler(async () => (await pageBuild()).build, 'production') : undefined,
  });
  if (options.contracts !== false) checkContracts(app);
  return {
    app, services, database, clock, siteId: seeded.siteId, demoUserId: seeded.demoUserId, photosDir, outbox, smsOutbox, operations,
    client: (o) => new TestClient(app, o?.host ?? 'localhost', o?.headers ?? {}, o?.ip),
    close: async () => {
      // Mail and push owed by the last requests finish before their database goes away.
      stopOutbox();
      await services.events.settle();
      await database.drop();
      rmSync(photosDir, { recursive: true, force: true });
    },
  };
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the app like a browser would: keeps cookies, sends JSON. */
let clientCounter = 0;

export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Each client is its own visitor, with its own address for rate limits. */
  readonly ip: string;
  constructor(
    private readonly app: ReturnType<typeof createApp>,
    private readonly host: string,
    private readonly headers: Record<string, string>,
    ip?: string,
  ) {
    this.ip = ip ?? `127.0.${Math.floor(++clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.request(`http://${this.host}${path}`, {
      method,
      headers: {
        host: this.host,
        'x-request-type': 'client',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
        ...this.headers,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }, { incoming: { socket: { remoteAddress: this.ip } } });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, value] = pair.split('=');
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) { return this.request<T>('GET', path, undefined, headers); }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('POST', path, body ?? {}, headers); }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('PUT', path, body ?? {}, headers); }
  delete<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('DELETE', path, body ?? {}, headers); }

  async login(email = 'demo@example.com', password = 'amora-demo') {
    const res = await this.post('/api/user.php', { email, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.user;
  }
}

let signupCounter = 0;
/**
 * Signs up a new member through the API and returns the signed-in client with their user. The
 * address counts as confirmed (as if the activation link was followed), since members with an
 * unconfirmed address cannot receive messages; pass { confirmed: false } to keep it unconfirmed.
 * `host`: sign up on that site (its Host) instead of the test site; the client stays on it.
 */
export async function signUp(t: TestApp, overrides: Record<string, unknown> = {}, options: { confirmed?: boolean; host?: string } = {}) {
  const client = t.client({ host: options.host });
  const n = ++signupCounter;
  const res = await client.post('/api/signup.php', {
    email: `member${n}.${Date.now()}@example.org`, name: `Tester${n}`, password: 'correct horse battery', date_of_birth: '1990-04-12',
    gender: 'female', country: 'NL', ...overrides,
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const user = res.body.user as import('../../common/api-types.ts').ApiUser;
  if (options.confirmed !== false) {
    await t.database.db.update(users).set({ status: 'active', activatedAt: t.clock() }).where(eq(users.id, user.id));
    user.status = 'active';
  }
  const siteId = options.host ? (await t.services.settings.siteForHost(options.host)).id : t.siteId;
  const actor: MemberActor = { kind: 'member', userId: user.id, siteId };
  return { client, user, actor };
}

/** The Cookie header of a new member signed in on the test site, in English: for requests made without a client. */
export async function signedInCookie(t: TestApp): Promise<{ cookie: string }> {
  const { user } = await signUp(t);
  return { cookie: `${AUTH_COOKIE}=${await t.services.accounts.createSession(user.id, t.siteId, 'test')}; ${LOCALE_COOKIE}=en` };
}

/** The member `userId` acting on the test site, for calling their use cases directly. */
export const memberActor = (t: Pick<TestApp, 'siteId'>, userId: number): MemberActor => ({ kind: 'member', userId, siteId: t.siteId });

/** The test app's database, seen through a drizzle instance of its own that records every statement it sends. */
export function countingDb(t: Pick<TestApp, 'database'>, kind: DatabaseKind): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const logger = { logQuery: (query: string) => void statements.push(query) };
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  const db = (kind === 'pglite'
    ? drizzlePglite(client as PGlite, { schema, casing: 'snake_case', logger })
    : drizzlePg(client as pg.Pool, { schema, casing: 'snake_case', logger })) as unknown as Db;
  return { db, statements };
}
