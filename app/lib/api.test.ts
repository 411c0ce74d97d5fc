import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_INTERVAL_MS } from '#common/constants.ts';
import { chatsPoll } from './activity.ts';
import { api, ApiError, parseRetryAfter } from './api.ts';
import { createQueryClient } from './query-client.ts';

/** A fake fetch that answers every request from `answer` and records what was asked. */
function fakeFetch(answer: (n: number) => Response | Promise<Response>) {
  const calls: { url: string; method: string; headers: Record<string, string>; at: number }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, method: init.method ?? 'GET', headers: (init.headers ?? {}) as Record<string, string>, at: Date.now() });
    return answer(calls.length);
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const failure = (status: number, headers: Record<string, string> = {}) => json(status, { error: { code: 'server_error', message: 'Nope' } }, headers);

/** Runs a promise to its end under fake timers, returning how it settled. */
async function settle<T>(promise: Promise<T>, ms = 120_000) {
  const outcome = promise.then((value) => ({ value }), (error: unknown) => ({ error }));
  await vi.advanceTimersByTimeAsync(ms);
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('one retry policy for the client', () => {
  it('a failing poll through the app\'s query client makes exactly 5 requests, with exponential delay', async () => {
    const calls = fakeFetch(() => failure(503));
    const started = Date.now();
    const poll = createQueryClient().observe(chatsPoll(POLL_INTERVAL_MS));
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(calls).toHaveLength(5);
    expect(calls.every((c) => c.url === '/api/chats.php')).toBe(true);
    // 1 s, 2 s, 4 s, 8 s between the tries.
    expect(calls.map((c) => c.at - started)).toEqual([0, 1000, 3000, 7000, 15000]);
    expect(poll.state().status).toBe('error');
    // The next poll fails the same way: 5 more, not 5 × 6.
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(calls).toHaveLength(10);
    poll.stop();
  });

  it('a poll that recovers stops retrying', async () => {
    const calls = fakeFetch((n) => (n < 3 ? failure(502) : json(200, { chats: [] })));
    const poll = createQueryClient().observe(chatsPoll(POLL_INTERVAL_MS));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(3);
    expect(poll.state().data).toEqual([]);
    poll.stop();
  });

  it('never retries a 4xx answer other than 408 and 429', async () => {
    for (const status of [400, 403, 404, 409, 413, 422]) {
      const calls = fakeFetch(() => failure(status));
      const { error } = (await settle(api('/api/user.php'))) as { error: ApiError };
      expect(error.status).toBe(status);
      expect(calls, `status ${status}`).toHaveLength(1);
    }
    for (const status of [408, 429, 500, 503]) {
      const calls = fakeFetch(() => failure(status));
      await settle(api('/api/user.php'));
      expect(calls, `status ${status}`).toHaveLength(5);
    }
  });

  it('waits as long as Retry-After asks, and gives up at once when it asks for more than 30 s', async () => {
    const retried = fakeFetch((n) => (n === 1 ? failure(429, { 'retry-after': '7' }) : json(200, { ok: true })));
    const start = Date.now();
    expect(await settle(api('/api/chats.php'))).toEqual({ value: { ok: true } });
    expect(retried.map((c) => c.at - start)).toEqual([0, 7000]);

    const calls = fakeFetch(() => failure(429, { 'retry-after': '900' }));
    const { error } = (await settle(api('/api/user.php', { method: 'POST', body: {}, idempotencyKey: 'k' }))) as { error: ApiError };
    expect(error.retryAfter).toBe(900);
    expect(calls).toHaveLength(1);
    expect(parseRetryAfter(new Date(Date.now() + 12_000).toUTCString())).toBe(12);
  });

  it('retries a POST only when it carries an Idempotency-Key; PUT and DELETE are idempotent', async () => {
    let calls = fakeFetch(() => failure(503));
    await settle(api('/api/like.php', { method: 'POST', body: { profile_id: 1 } }));
    expect(calls).toHaveLength(1);
    calls = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await settle(api('/api/like.php', { method: 'POST', body: { profile_id: 1 } }));
    expect(calls).toHaveLength(1);

    calls = fakeFetch(() => failure(503));
    await settle(api('/api/messages.php', { method: 'POST', body: { text: 'hi' }, idempotencyKey: 'abc' }));
    expect(calls).toHaveLength(5);
    expect(calls.every((c) => c.headers['Idempotency-Key'] === 'abc')).toBe(true);
    for (const method of ['PUT', 'DELETE'] as const) {
      calls = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
      await settle(api('/api/profile.php', { method, body: {} }));
      expect(calls, method).toHaveLength(5);
    }
    calls = fakeFetch(() => failure(503));
    await settle(api('/api/user.php', { retries: 0 }));
    expect(calls).toHaveLength(1);
  });

  it('stops retrying when the query is cancelled', async () => {
    const calls = fakeFetch(() => failure(503));
    const controller = new AbortController();
    const pending = settle(api('/api/chats.php', { signal: controller.signal }), 0);
    await vi.advanceTimersByTimeAsync(1500);
    controller.abort();
    await pending;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2);
  });
});

describe('signing out', () => {
  it('posts the log-out once, and afterwards the tab asks the server nothing more', async () => {
    vi.resetModules();
    const fresh = await import('./api.ts');
    const calls = fakeFetch(() => json(200, { ok: true }));
    await fresh.signOut();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/logout.php']);
    expect(calls[0].headers['X-Request-Type']).toBe('client');
    // A live event or a poll between the log-out and the next page: no request, no error shown.
    let settled = false;
    void fresh.api('/api/user.php').finally(() => { settled = true; });
    void fresh.api('/api/chats.php').finally(() => { settled = true; });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    expect(settled).toBe(false);
  });
});
