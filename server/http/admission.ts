import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { DEFAULT_LANGUAGE, isLanguage, LOCALE_COOKIE } from '#common/languages.ts';
import type { Translator } from '../i18n/i18n.ts';
import type { AppEnv } from './context.ts';

export interface AdmissionOptions {
  /** The most requests this instance works on at once; one more is refused. 0: no limit. */
  maxInFlight: number;
  /**
   * The median answer time (ms) the instance keeps to: while recent answers take longer, it admits fewer requests at
   * once (down to MIN_IN_FLIGHT), and more again (up to maxInFlight) while they are faster. 0: a fixed maxInFlight.
   */
  targetMs?: number;
  /** Event-loop delay (ms, recent peak) above which new requests are refused. 0: not watched. */
  maxDelayMs: number;
  /** What the refusal's Retry-After says, in seconds. */
  retryAfterSeconds?: number;
}

export type RefusalReason = 'in_flight' | 'event_loop_delay';

export interface Admission {
  /** Takes a place for a request, or says why there is none. */
  enter(): RefusalReason | null;
  /** Gives the place back; `ms`: how long the request took. */
  leave(ms?: number): void;
  /** Requests in progress, how many may be, and the event loop's recent delay (ms). */
  state(): { inFlight: number; limit: number; delayMs: number };
  stop(): void;
}

/**
 * How often the event loop's delay is sampled, and the weight of each sample in the running average (a time constant
 * of about 200 ms): one long task (a cold start's compilation, a garbage collection) hardly moves it, a loop that
 * stays late does.
 */
const SAMPLE_MS = 10;
const WEIGHT = 0.05;
/**
 * The fewest requests admitted at once however slow the answers are, and how often the limit is reconsidered. The
 * limit drops only while the instance is busy: at its limit, or with BUSY requests at once (a page and its data
 * requests of a few members are not load, even when a slow machine answers them slowly).
 */
export const MIN_IN_FLIGHT = 2;
const BUSY = 16;
const WINDOW_MS = 100;
const MIN_SAMPLES = 5;

/**
 * Admission control (docs/decisions/078): a request is refused at once, with 503 and Retry-After, when the instance
 * already works on as many requests as it may, or its event loop ran `maxDelayMs` late recently. Queues then stay
 * short and the answers that are given stay fast; a client (or the load balancer) tries again a second later, or
 * elsewhere.
 *
 * How many it may is adapted every 100 ms (additive increase, multiplicative decrease): when the median answer of
 * the last window took longer than `targetMs`, the limit drops by a fifth; otherwise it grows by one, up to
 * `maxInFlight`. An idle instance so admits bursts up to the maximum, and an overloaded one only what it answers in
 * time. The delay is the lateness of a 10 ms timer, as a running average over about 200 ms.
 */
export function createAdmission(options: AdmissionOptions, now: () => number = () => performance.now()): Admission {
  let inFlight = 0;
  let delayMs = 0;
  const ceiling = options.maxInFlight > 0 ? options.maxInFlight : Infinity;
  let limit = ceiling;
  let samples: number[] = [];
  let windowStart = now();
  /** The most requests in progress at once during the window: slow answers of a quiet instance (uploads) are not load. */
  let busiest = 0;
  const adapt = (ms: number) => {
    samples.push(ms);
    const at = now();
    if (at - windowStart < WINDOW_MS || samples.length < MIN_SAMPLES) return;
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)];
    const overloaded = median > options.targetMs! && (busiest >= limit || busiest >= BUSY);
    limit = overloaded ? Math.max(MIN_IN_FLIGHT, Math.floor(Math.min(limit, busiest) * 0.8)) : Math.min(ceiling, limit + 1);
    busiest = inFlight;
    samples = [];
    windowStart = at;
  };
  let expected = now() + SAMPLE_MS;
  const timer = options.maxDelayMs > 0
    ? setInterval(() => {
      const at = now();
      delayMs += WEIGHT * (Math.max(0, at - expected) - delayMs);
      expected = at + SAMPLE_MS;
    }, SAMPLE_MS)
    : undefined;
  timer?.unref();
  return {
    enter() {
      if (inFlight >= limit) return 'in_flight';
      if (options.maxDelayMs > 0 && delayMs > options.maxDelayMs) return 'event_loop_delay';
      inFlight++;
      busiest = Math.max(busiest, inFlight);
      return null;
    },
    leave(ms) {
      inFlight = Math.max(0, inFlight - 1);
      if (ms !== undefined && options.targetMs && options.maxInFlight > 0) adapt(ms);
    },
    state: () => ({ inFlight, limit, delayMs }),
    stop() { if (timer) clearInterval(timer); },
  };
}

/**
 * The middleware: before anything that reads the database, so that a refusal costs next to nothing. The answer is
 * the API's error shape in the locale cookie's language (the site and its language are not looked up).
 */
export function admissionControl(
  admission: Admission, options: Pick<AdmissionOptions, 'retryAfterSeconds'>, translator: Translator, onRefused?: (reason: RefusalReason) => void,
): MiddlewareHandler<AppEnv> {
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  return async (c, next) => {
    const refused = admission.enter();
    if (refused) {
      onRefused?.(refused);
      const cookie = getCookie(c, LOCALE_COOKIE);
      const lang = isLanguage(cookie) ? cookie : DEFAULT_LANGUAGE;
      return c.json({ error: { code: 'overloaded', message: translator.t(lang, 'errors.overloaded') } }, 503, {
        'Retry-After': retryAfter, 'Cache-Control': 'no-store',
      });
    }
    const started = performance.now();
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      admission.leave(performance.now() - started);
    };
    // On a real server the place is given back when the answer is sent or the connection closed, whichever comes first:
    // a handler still waiting for a body the client gave up on must not hold a place forever.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    outgoing?.once('close', leave);
    try {
      await next();
    } finally {
      if (!outgoing) leave();
    }
  };
}
