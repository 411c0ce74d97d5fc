import type { ApiErrorBody } from '#common/api-types.ts';
import { API_ATTEMPTS } from '#common/constants.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string> = {},
    /** Seconds the server asked to wait (Retry-After on 429 and 503), when it said. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The longest wait between two tries; a server that asks for more gets the error shown instead. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** 1 s, 2 s, 4 s, 8 s … before retry n (1-based), at most MAX_RETRY_DELAY_MS. */
export function retryDelay(retry: number): number {
  return Math.min(1000 * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
}

/**
 * Whether a failed try may be repeated. Network failures, 408, 429 and 5xx may; any other 4xx is
 * final. A POST is repeated only with an Idempotency-Key, since the server may have acted on the
 * first one (a message sent, credits spent) before the answer was lost.
 */
export function isRetryable(error: unknown, request: { method?: string; idempotencyKey?: string } = {}): boolean {
  if (isAbort(error)) return false;
  if ((request.method ?? 'GET') === 'POST' && !request.idempotencyKey) return false;
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}

/** The wait before retry n: the exponential delay, or longer when the server said so (null: do not retry). */
export function waitBeforeRetry(error: unknown, retry: number): number | null {
  const delay = retryDelay(retry);
  if (!(error instanceof ApiError) || error.retryAfter === null) return delay;
  const asked = error.retryAfter * 1000;
  return asked > MAX_RETRY_DELAY_MS ? null : Math.max(delay, asked);
}

/** Retry-After as seconds or as an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  idempotencyKey?: string;
  /** Retries after the first try; API_ATTEMPTS - 1 unless the caller shows the error at once (0). */
  retries?: number;
  /** Stops the request and any wait for a retry (TanStack Query passes one to every queryFn). */
  signal?: AbortSignal;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

async function once<T>(path: string, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { 'X-Request-Type': 'client', Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const res = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
    signal: options.signal,
  });
  const data = (await res.json().catch(() => null)) as (T & Partial<ApiErrorBody>) | null;
  if (!res.ok) {
    const err = data?.error;
    throw new ApiError(res.status, err?.code ?? 'server_error', err?.message ?? res.statusText, err?.details ?? {}, parseRetryAfter(res.headers.get('retry-after')));
  }
  return data as T;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls the JSON API. This is the one place that retries (TanStack Query does not): up to
 * API_ATTEMPTS tries with exponential delay (spec section 7), only when isRetryable() allows it,
 * honouring Retry-After. A 403 with authentication_required means the session is gone: the
 * member is logged out.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  // Signing out: the tab is on its way out, and a request now would only meet the ended session (403).
  if (signingOut) return new Promise<never>(() => undefined);
  const retries = Math.min(options.retries ?? API_ATTEMPTS - 1, API_ATTEMPTS - 1);
  for (let retry = 1; ; retry++) {
    try {
      return await once<T>(path, options);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && error.code === 'authentication_required') {
        onAuthenticationRequired?.();
      }
      if (retry > retries || !isRetryable(error, options)) throw error;
      const wait = waitBeforeRetry(error, retry);
      if (wait === null) throw error;
      await sleep(wait, options.signal);
    }
  }
}

let signingOut = false;

/**
 * Ends the session and keeps this tab from asking anything more in the member's name: a live event or a poll
 * arriving between the log-out and the next page would otherwise fetch and fail. The caller leaves the page.
 */
export async function signOut(): Promise<void> {
  signingOut = true;
  await once('/api/logout.php', { method: 'POST' }).catch(() => undefined);
}

let onAuthenticationRequired: (() => void) | undefined;
export function setAuthenticationRequiredHandler(handler: () => void) {
  onAuthenticationRequired = handler;
}
