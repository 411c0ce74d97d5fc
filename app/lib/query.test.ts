import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider, useQuery } from './query.ts';

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); vi.unstubAllGlobals(); });

/** A query function that answers `answers` in turn (the last one again), after `delay` ms, and counts its calls. */
function source<T>(answers: T[], delay = 10) {
  const calls: AbortSignal[] = [];
  const queryFn = ({ signal }: { signal: AbortSignal }) => {
    calls.push(signal);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    return new Promise<T>((resolve) => setTimeout(() => resolve(answer), delay));
  };
  return { calls, queryFn };
}

describe('the pages\' query cache', () => {
  it('fetches a watched query once, shares the entry between watchers and keeps unchanged data as it was', async () => {
    const client = new QueryClient();
    const chats = source([{ list: [1, 2] }]);
    const heard: number[] = [];
    const a = client.observe({ queryKey: ['chats'], queryFn: chats.queryFn }, () => heard.push(1));
    const b = client.observe({ queryKey: ['chats'], queryFn: chats.queryFn });
    await vi.advanceTimersByTimeAsync(20);
    expect(chats.calls).toHaveLength(1);
    expect(a.state()).toMatchObject({ status: 'success', data: { list: [1, 2] } });
    const first = a.state().data;
    const refreshed = client.invalidateQueries({ queryKey: ['chats'] });
    await vi.advanceTimersByTimeAsync(20);
    await refreshed;
    expect(chats.calls).toHaveLength(2);
    expect(b.state().data).toBe(first);
    expect(heard.length).toBeGreaterThan(0);
    a.stop();
    b.stop();
  });

  it('counts initial data as fetched now: fresh for its stale time, fetched at once without one', async () => {
    const client = new QueryClient();
    const messages = source(['new']);
    const fresh = client.observe({ queryKey: ['messages', 1], queryFn: messages.queryFn, initialData: 'rendered', staleTime: 2000 });
    await vi.advanceTimersByTimeAsync(50);
    expect(messages.calls).toHaveLength(0);
    expect(fresh.state().data).toBe('rendered');
    const order = source(['paid']);
    const stale = client.observe({ queryKey: ['order', 'x'], queryFn: order.queryFn, initialData: 'open' });
    await vi.advanceTimersByTimeAsync(50);
    expect(order.calls).toHaveLength(1);
    expect(stale.state().data).toBe('paid');
    fresh.stop();
    stale.stop();
  });

  it('polls at a steady pace while watched, asks an interval function after each turn, and stops with the watcher', async () => {
    const client = new QueryClient();
    const order = source(['open', 'open', 'completed', 'completed']);
    const watch = client.observe({
      queryKey: ['order', 'y'], queryFn: order.queryFn, initialData: 'open', staleTime: Infinity,
      refetchInterval: (q) => (q.state.data === 'completed' ? false : 3000),
    });
    await vi.advanceTimersByTimeAsync(3000 * 5);
    // Turns at 3, 6 and 9 s; at 9 s the order is completed and polling ends.
    expect(order.calls).toHaveLength(3);
    expect(watch.state().data).toBe('completed');
    const chats = source([[]]);
    const poll = client.observe({ queryKey: ['chats'], queryFn: chats.queryFn, initialData: [], staleTime: Infinity, refetchInterval: 1000 });
    await vi.advanceTimersByTimeAsync(3500);
    expect(chats.calls).toHaveLength(3);
    poll.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(chats.calls).toHaveLength(3);
    watch.stop();
  });

  it('skips polling turns while the page is hidden', async () => {
    const visibility = { visibilityState: 'hidden' };
    vi.stubGlobal('document', visibility);
    const client = new QueryClient();
    const chats = source([[]]);
    const poll = client.observe({ queryKey: ['chats'], queryFn: chats.queryFn, initialData: [], staleTime: Infinity, refetchInterval: 1000 });
    await vi.advanceTimersByTimeAsync(3500);
    expect(chats.calls).toHaveLength(0);
    visibility.visibilityState = 'visible';
    await vi.advanceTimersByTimeAsync(1000);
    expect(chats.calls).toHaveLength(1);
    poll.stop();
  });

  it('an invalidation during a fetch starts over: the older answer never lands', async () => {
    const client = new QueryClient();
    const chats = source(['before the send', 'after the send'], 100);
    const watch = client.observe({ queryKey: ['chats'], queryFn: chats.queryFn });
    await vi.advanceTimersByTimeAsync(10);
    const done = client.invalidateQueries({ queryKey: ['chats'] });
    expect(chats.calls[0].aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    await done;
    expect(watch.state().data).toBe('after the send');
    watch.stop();
  });

  it('invalidates every key under a prefix, fetching only the watched ones; setQueryData updates in place', async () => {
    const client = new QueryClient();
    const one = source(['m1']);
    const watch = client.observe({ queryKey: ['messages', 1], queryFn: one.queryFn, initialData: 'm0', staleTime: Infinity });
    client.setQueryData(['messages', 2], 'unwatched');
    const refreshed = client.invalidateQueries({ queryKey: ['messages'] });
    await vi.advanceTimersByTimeAsync(20);
    await refreshed;
    expect(one.calls).toHaveLength(1);
    expect(watch.state().data).toBe('m1');
    expect(client.getQueryData(['messages', 2])).toBe('unwatched');
    client.setQueryData<string>(['messages', 1], (m) => `${m}+local`);
    expect(watch.state().data).toBe('m1+local');
    client.setQueryData<string>(['messages', 1], () => undefined);
    expect(watch.state().data).toBe('m1+local');
    watch.stop();
  });

  it('keeps the data and reports the error when a fetch fails', async () => {
    const client = new QueryClient();
    let fail = false;
    const watch = client.observe({ queryKey: ['user'], queryFn: async () => { if (fail) throw new Error('offline'); return 'me'; } });
    await vi.advanceTimersByTimeAsync(1);
    fail = true;
    await client.invalidateQueries({ queryKey: ['user'] });
    expect(watch.state()).toMatchObject({ status: 'error', data: 'me' });
    watch.stop();
  });

  it('renders initial data on the server without fetching', () => {
    const client = new QueryClient();
    const user = source(['fetched']);
    function Name() {
      const { data } = useQuery({ queryKey: ['user'], queryFn: user.queryFn, initialData: 'rendered' });
      return createElement('span', null, data);
    }
    expect(renderToString(createElement(QueryClientProvider, { client }, createElement(Name)))).toBe('<span>rendered</span>');
    expect(user.calls).toHaveLength(0);
  });
});
