import { z } from 'zod';

const PREFIX_LENGTH = 'must be a prefix length from 32 to 128, such as 64';

/** The only reader of process.env. Fails fast with a message a person understands. */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  /**
   * How long the server waits for a connection to PostgreSQL (opening one, or a free one in the pool), and how long it
   * gives the database to answer a probe when a held connection goes silent: past it the request answers 503 with
   * Retry-After instead of hanging while the database is away (docs/operations.md, server/db/reachability.ts).
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /**
   * The operator's limit on one statement (PostgreSQL's statement_timeout), 0 for none (the default): an unreachable
   * database is noticed without it, so it only ends statements that are slow.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(0)
    .refine((ms) => ms === 0 || ms >= 100, 'must be 0 (no limit) or at least 100 ms'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.url('must be an absolute URL such as https://example.com').optional(),
  /**
   * The provider of sites (and companies) without a payment account of their own (table payment_accounts):
   * only the built-in test provider, since a real one needs the site's own credentials.
   */
  PAYMENT_PROVIDER: z.enum(['test']).default('test'),
  /** Where the Mollie client sends its requests; only for a staging or test double of Mollie's API. */
  MOLLIE_API_ENDPOINT: z.url('must be an absolute URL such as https://api.mollie.com/v2/').optional(),
  /** The test provider simulates payments; on a public origin it stays off unless the operator turns it on here. */
  ALLOW_TEST_PAYMENTS: z.enum(['0', '1', 'true', 'false']).default('0').transform((v) => v === '1' || v === 'true'),
  /**
   * The dev viewers /dev/outbox and /dev/sms: off unless set. Even then they answer only the operator on this machine
   * (loopback, no proxy) and never on a public deployment (docs/decisions/009).
   */
  DEV_TOOLS: z.enum(['0', '1', 'true', 'false']).default('0').transform((v) => v === '1' || v === 'true'),
  /** How many proxies in front of the server append to X-Forwarded-For (0: none; true means 1). */
  TRUST_PROXY: z
    .string()
    .regex(/^(\d{1,2}|true|false)$/, 'must be the number of trusted proxy hops (0, 1, 2 …), true (1) or false (0)')
    .default('0')
    .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v))),
  /**
   * Per-address limits count an IPv6 client by its network of this many bits (a household or server is given a /64 or
   * more and may use any address in it); IPv4 clients by their address.
   */
  RATE_LIMIT_IPV6_PREFIX: z.coerce.number(PREFIX_LENGTH).int(PREFIX_LENGTH).min(32, PREFIX_LENGTH).max(128, PREFIX_LENGTH).default(64),
  /** Shared rate-limit counters, caches and the live channel between instances; without it the database (and this process for live events). */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379').optional(),
  /** Starts every Redis key and channel of this deployment, so that several can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[\w:.-]{1,64}$/, 'must be 1 to 64 letters, digits or _ : . -').default('amora:'),
  /** Key for signed cookies (tracking, known devices); without it one is generated and kept in the database. */
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SEED_DEMO: z.enum(['auto', 'always', 'never']).default('auto'),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  /** On SIGTERM/SIGINT: how long running requests, then pending notifications, may take before they are cut off. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Web push keys; without them a pair is generated on first start and kept in the database. */
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a URL-safe base64 P-256 public key').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{40,50}$/, 'must be a URL-safe base64 P-256 private key').optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// contact').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465')
    .optional(),
  MAIL_FROM: z.string().regex(/^(.*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be an address such as "Amora <no-reply@example.com>"').optional(),
  MAIL_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * An HTTP SMS gateway for payment codes (POST {from, to, text} as JSON, bearer SMS_API_KEY); without it
   * text messages go to the dev outbox in DATA_DIR/sms-outbox (viewer at /dev/sms with DEV_TOOLS).
   */
  SMS_URL: z.url('must be an absolute URL such as https://sms.example.com/v1/messages').optional(),
  SMS_API_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
  /** The sender shown on the phone: up to 11 letters and digits, or a number. */
  SMS_FROM: z.string().regex(/^([A-Za-z0-9 ]{1,11}|\+[0-9]{8,15})$/, 'must be up to 11 letters and digits, or a number such as +31612345678').optional(),
  /** An S3-compatible bucket for photos; without S3_BUCKET photos stay on local disk (DATA_DIR/photos). */
  S3_ENDPOINT: z.url('must be an absolute URL such as https://s3.eu-central-1.amazonaws.com').optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  /**
   * What this process runs (the command line's --role wins): web (HTTP and live sockets), worker (outbox delivery and
   * scheduled jobs; HTTP only for /healthz, /readyz and /metrics on METRICS_PORT) or all (the embedded default).
   */
  AMORA_ROLE: z.enum(['web', 'worker', 'all'], 'must be web, worker or all').default('all'),
  /**
   * Whether this process migrates the database at start. Unset: the embedded database does, and on PostgreSQL only role
   * all does; a fleet runs `npm run db:migrate` once instead (docs/deploy.md).
   */
  AMORA_MIGRATE: z.enum(['0', '1', 'true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === '1' || v === 'true')),
  /**
   * OpenTelemetry: the OTLP/HTTP collector that receives traces of requests and database calls (for example
   * http://otel-collector:4318). Without it nothing is traced. The exporter also reads the other OTEL_EXPORTER_OTLP_*
   * variables (headers, timeout) and OTEL_BSP_* (batching) itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url('must be an absolute URL such as http://otel-collector:4318').optional(),
  /** The service name traces carry. */
  OTEL_SERVICE_NAME: z.string().regex(/^[\w.-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . -').default('amora'),
  /** A second port that serves /metrics (and /healthz, /readyz) without a token; keep it off the public network. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** With it, /metrics on the main port answers a request that sends it as a bearer token; without it (or METRICS_PORT) /metrics does not exist. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(512, 'must be at most 512 characters').regex(/^\S+$/, 'must not contain spaces').optional(),
  /**
   * How often a worker looks for due outbox rows without being woken. On PostgreSQL a commit wakes the workers
   * (LISTEN/NOTIFY), so this is only the fallback for retries and a lost notification.
   */
  OUTBOX_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  /**
   * Admission control (docs/decisions/078): requests one web instance works on at once before it answers 503 with
   * Retry-After; 0 turns the limit off.
   */
  ADMISSION_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(64),
  /** The median answer time (ms) a web instance keeps to by admitting fewer requests at once while it is slower; 0: a fixed limit. */
  ADMISSION_TARGET_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  /** The event-loop delay (ms) above which a web instance refuses new requests for a moment (PostgreSQL only); 0: not watched. */
  ADMISSION_MAX_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(100),
}).superRefine((v, ctx) => {
  if (v.METRICS_PORT !== undefined && v.METRICS_PORT === v.PORT) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
  }
  if (v.SMS_URL && (!v.SMS_API_KEY || !v.SMS_FROM)) {
    ctx.addIssue({ code: 'custom', path: ['SMS_URL'], message: 'needs SMS_API_KEY and SMS_FROM as well' });
  }
  if (v.S3_BUCKET && (!v.S3_ENDPOINT || !v.S3_ACCESS_KEY_ID || !v.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'needs S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as well' });
  }
});

export type Env = z.infer<typeof schema>;
/** Every variable this file reads (the deployment files may name no other: tests/deploy/deploy-files.test.ts). */
export const ENV_NAMES: readonly string[] = Object.keys(schema.shape);
export type Role = Env['AMORA_ROLE'];

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}\nSee the README for every environment variable.`);
  }
  return result.data;
}
