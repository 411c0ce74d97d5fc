/**
 * npm run bench -- overload: admission control (docs/decisions/078) on one built instance and across two, on
 * PostgreSQL and Redis.
 *
 * 1. The sustainable send rate: CONCURRENCY senders post messages as fast as the instances answer; the rate they
 *    reach, times SUSTAINABLE_SHARE, is what the instances can carry with short queues.
 * 2. At that rate (open loop: each send starts when it is due, whatever the ones before it do) nothing may be refused.
 * 3. At twice that rate the instances must keep the sends they accept fast (p99 ≤ 250 ms, timed from when each send was
 *    due) and refuse the rest quickly (503 with Retry-After), instead of queueing them all.
 *
 * Every send comes from a member of its own phase, so no member reaches the chat's per-member rate limit: the bench
 * measures the instances, not the limiter. Needs the production build (npm run build).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH_COOKIE } from '../common/constants.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import { databaseUrl, dropDatabase, figure, percentile, runBench, startNodeProcess, stopBenchProcesses, target } from './lib.ts';
import { memberSessions, paced, seedMembers } from './members.ts';

const DB_NAME = 'amora_bench_overload';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 10);
const CONCURRENCY = 20;
const SUSTAINABLE_SHARE = 0.6;
const TARGETS = { acceptedP99Ms: 250, refusedP99Ms: 50 };
/** Senders per phase: more than the sends of a phase at 2 × 1,000/s spread over 20 a minute each would need. */
const SENDERS = Number(process.env.BENCH_OVERLOAD_SENDERS ?? 3000);
const PHASES = ['warmup', 'capacity1', 'steady1', 'over1', 'capacity2', 'steady2', 'over2'] as const;

interface Outcome { accepted: number[]; refused: number[]; failed: number }

const dataDirs: string[] = [];

async function startInstance(prefix: string): Promise<number> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-overload-'));
  dataDirs.push(dataDir);
  await startNodeProcess(['build/server/main.js'], {
    NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl(DB_NAME),
    REDIS_URL, REDIS_PREFIX: prefix, SEED_DEMO: 'never', LOG_LEVEL: 'error', DATA_DIR: dataDir,
    // The limits under test, as an operator would set them (the defaults otherwise).
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('ADMISSION_'))),
  }, `http://127.0.0.1:${port}/readyz`);
  return port;
}

async function main() {
  if (!existsSync('build/server/main.js')) throw new Error('npm run build first: the bench runs the production build');
  const { siteId, ids } = await seedMembers(DB_NAME, SENDERS * PHASES.length + 1000);
  const recipients = ids.slice(0, 1000);
  const senders = Object.fromEntries(PHASES.map((phase, n) => [phase, ids.slice(1000 + n * SENDERS, 1000 + (n + 1) * SENDERS)])) as Record<(typeof PHASES)[number], number[]>;
  const cookies = await memberSessions(DB_NAME, siteId, ids.slice(1000));
  const prefix = `bench-overload-${process.pid}:`;
  const ports = [await startInstance(prefix), await startInstance(prefix)];

  let keys = 0;
  /** One send; its time counts from `due`. */
  const send = async (port: number, from: number, to: number, due: number, outcome: Outcome) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/messages.php`, {
      method: 'POST',
      headers: {
        cookie: `${AUTH_COOKIE}=${cookies.get(from)}`, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json',
        'x-request-type': 'client', 'idempotency-key': `overload-${from}-${++keys}`,
      },
      body: JSON.stringify({ profile_id: to, text: `hello ${to} from ${from}` }),
    }).catch(() => null);
    const ms = performance.now() - due;
    const body = res ? await res.text() : '';
    if (res && (res.status === 200 || res.status === 201)) outcome.accepted.push(ms);
    else if (res?.status === 503 && res.headers.get('retry-after')) outcome.refused.push(ms);
    else {
      outcome.failed++;
      if (outcome.failed === 1) console.error(`a send answered ${res?.status ?? 'nothing'}: ${body.slice(0, 200)}`);
    }
  };
  const fresh = (): Outcome => ({ accepted: [], refused: [], failed: 0 });
  const sender = (phase: (typeof PHASES)[number], i: number) => senders[phase][i % SENDERS];

  /** As fast as CONCURRENCY senders go: the rate the instances reach. */
  const capacity = async (phase: (typeof PHASES)[number], use: number[]) => {
    const outcome = fresh();
    const count = Math.min(SENDERS * 2, 4000);
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        await send(use[i % use.length], sender(phase, i), recipients[i % recipients.length], performance.now(), outcome);
      }
    }));
    return outcome.accepted.length / ((performance.now() - started) / 1000);
  };
  const open = async (phase: (typeof PHASES)[number], use: number[], rate: number) => {
    const outcome = fresh();
    const count = Math.round(rate * SECONDS);
    await paced(count, rate, (i, due) => send(use[i % use.length], sender(phase, i), recipients[(i * 7) % recipients.length], due, outcome));
    return outcome;
  };
  const report = (name: string, outcome: Outcome) => {
    const accepted = [...outcome.accepted].sort((a, b) => a - b);
    const refused = [...outcome.refused].sort((a, b) => a - b);
    figure(`${name}_accepted`, accepted.length, 'sends');
    figure(`${name}_refused`, refused.length, 'sends');
    figure(`${name}_failed`, outcome.failed, 'sends');
    figure(`${name}_accepted_p50`, percentile(accepted, 50) ?? 0, 'ms');
    figure(`${name}_accepted_p99`, percentile(accepted, 99) ?? 0, 'ms');
    if (refused.length) figure(`${name}_refused_p99`, percentile(refused, 99), 'ms');
    return { accepted, refused };
  };

  // Warm-up: JIT, pools and caches of both instances, as traffic would have before.
  await open('warmup', ports, 100);

  for (const [label, use] of [['one_instance', ports.slice(0, 1)], ['two_instances', ports]] as const) {
    const n = use.length === 1 ? '1' : '2';
    const reached = await capacity(`capacity${n}` as 'capacity1', [...use]);
    const sustainable = Math.max(1, Math.round(reached * SUSTAINABLE_SHARE));
    figure(`${label}_capacity`, reached, 'sends/s');
    figure(`${label}_sustainable_rate`, sustainable, 'sends/s');
    await new Promise((r) => setTimeout(r, 1000));

    const steady = report(`${label}_sustainable`, await open(`steady${n}` as 'steady1', [...use], sustainable));
    target(steady.refused.length === 0, `${label}: ${steady.refused.length} sends refused at the sustainable rate`);
    await new Promise((r) => setTimeout(r, 1000));

    const over = await open(`over${n}` as 'over1', [...use], sustainable * 2);
    const twice = report(`${label}_twice_sustainable`, over);
    target(over.failed === 0, `${label}: ${over.failed} sends failed otherwise than with 503 and Retry-After`);
    target((percentile(twice.accepted, 99) ?? Infinity) <= TARGETS.acceptedP99Ms, `${label}: accepted sends p99 over ${TARGETS.acceptedP99Ms} ms at twice the sustainable rate`);
    if (twice.refused.length) {
      target(percentile(twice.refused, 99) <= TARGETS.refusedP99Ms + TARGETS.acceptedP99Ms, `${label}: refusals p99 over ${TARGETS.refusedP99Ms + TARGETS.acceptedP99Ms} ms`);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

await runBench(main, async () => {
  await stopBenchProcesses();
  if (!process.env.BENCH_KEEP) await dropDatabase(DB_NAME).catch(() => undefined);
  for (const dir of dataDirs) rmSync(dir, { force: true, recursive: true });
});
