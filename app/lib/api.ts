import type { ApiErrorBody } from '#common/api-types.ts';
import { API_RETRIES } from '#common/constants.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Network failures and 5xx are worth retrying; a 4xx answer is final. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500 || error.status === 429;
}

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  idempotencyKey?: string;
  retries?: number;
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
  });
  const data = (await res.json().catch(() => null)) as (T & Partial<ApiErrorBody>) | null;
  if (!res.ok) {
    const err = data?.error;
    throw new ApiError(res.status, err?.code ?? 'server_error', err?.message ?? res.statusText, err?.details ?? {});
  }
  return data as T;
}

/**
 * Calls the JSON API, retrying up to 5 times with exponential delay (spec section 7). A 403 with
 * authentication_required means the session is gone: the member is logged out.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const retries = options.retries ?? API_RETRIES;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once<T>(path, options);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && error.code === 'authentication_required') {
        onAuthenticationRequired?.();
      }
      if (attempt >= retries || !isRetryable(error)) throw error;
      await new Promise((r) => setTimeout(r, retryDelay(attempt)));
    }
  }
}

let onAuthenticationRequired: (() => void) | undefined;
export function setAuthenticationRequiredHandler(handler: () => void) {
  onAuthenticationRequired = handler;
}
