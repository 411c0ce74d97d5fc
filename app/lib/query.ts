import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';

/**
 * The pages' server data in the browser: one cache entry per key (`['chats']`, `['messages', 12]`), shared by
 * every component that reads it, polled while a component shows it, refreshed when something invalidates it,
 * updated in place by the page. A small subset of TanStack Query's API (the part the pages use) on purpose: it
 * is in every page's JavaScript (docs/decisions/042). Retries are api()'s alone.
 */
export type QueryKey = readonly unknown[];

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  status: 'pending' | 'success' | 'error';
  /** When the data last came from the server or the page (ms); 0 for none. */
  updatedAt: number;
}

export interface QueryOptions<T> {
  queryKey: QueryKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<T>;
  /** What the server rendered with: the entry's data until the first fetch, counted as fetched now. */
  initialData?: T;
  enabled?: boolean;
  /** How long fetched data counts as fresh: a component showing it later does not fetch it again. Default 0. */
  staleTime?: number;
  /** Poll every so many ms while shown and the page is visible; a function is asked after every fetch. */
  refetchInterval?: number | false | ((query: { state: QueryState<T> }) => number | false | undefined);
  gcTime?: number;
  retry?: boolean;
}

type Listener = () => void;

class Entry<T = unknown> {
  state: QueryState<T> = { data: undefined, error: null, status: 'pending', updatedAt: 0 };
  readonly listeners = new Set<Listener>();
  /** The enabled observers' options: a refetch uses the newest. */
  readonly active = new Set<{ current: QueryOptions<T> }>();
  private running: { controller: AbortController; done: Promise<void> } | null = null;

  set(next: Partial<QueryState<T>>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  /** Fetches with the newest options of an enabled observer; `restart` drops a fetch under way for a new one. */
  fetch(restart = false): Promise<void> {
    const options = [...this.active].at(-1)?.current;
    if (!options) return Promise.resolve();
    if (this.running && !restart) return this.running.done;
    this.running?.controller.abort();
    const controller = new AbortController();
    const done = options.queryFn({ signal: controller.signal }).then(
      (data) => {
        if (controller.signal.aborted) return;
        this.set({ data: shared(this.state.data, data), error: null, status: 'success', updatedAt: Date.now() });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.set({ error, status: 'error' });
      },
    ).finally(() => {
      if (this.running?.controller === controller) this.running = null;
    });
    this.running = { controller, done };
    return done;
  }

  /** What the server rendered with becomes the data of an entry that has none yet, counted as fetched now. */
  seed(initialData: T | undefined) {
    if (this.state.updatedAt === 0 && this.state.data === undefined && initialData !== undefined) {
      this.state = { data: initialData, error: null, status: 'success', updatedAt: Date.now() };
    }
  }

  isStale(staleTime: number) {
    return this.state.updatedAt === 0 || Date.now() - this.state.updatedAt >= staleTime;
  }
}

/** Unchanged data keeps its identity (effects that depend on it do not run again on every poll). */
function shared<T>(previous: T | undefined, next: T): T {
  return previous !== undefined && JSON.stringify(previous) === JSON.stringify(next) ? previous : next;
}

const hashKey = (key: QueryKey) => JSON.stringify(key);

/** Whether `key` starts with `prefix` (invalidating `['messages']` reaches `['messages', 12]`). */
function startsWith(key: QueryKey, prefix: QueryKey) {
  return prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));
}

export class QueryClient {
  private readonly entries = new Map<string, { key: QueryKey; entry: Entry }>();

  entry<T>(key: QueryKey): Entry<T> {
    const hash = hashKey(key);
    let found = this.entries.get(hash);
    if (!found) this.entries.set(hash, (found = { key, entry: new Entry() }));
    return found.entry as Entry<T>;
  }

  getQueryData<T>(key: QueryKey): T | undefined {
    return this.entries.get(hashKey(key))?.entry.state.data as T | undefined;
  }

  /** Sets an entry's data (an updater gets the current data; undefined from it changes nothing). */
  setQueryData<T>(key: QueryKey, update: T | undefined | ((previous: T | undefined) => T | undefined)) {
    const entry = this.entry<T>(key);
    const data = typeof update === 'function' ? (update as (previous: T | undefined) => T | undefined)(entry.state.data) : update;
    if (data === undefined) return;
    entry.set({ data, error: null, status: 'success', updatedAt: Date.now() });
  }

  /** Every entry under the key is stale; the ones on screen fetch again now (a fetch under way starts over). */
  async invalidateQueries({ queryKey }: { queryKey: QueryKey }): Promise<void> {
    const fetches: Promise<void>[] = [];
    for (const { key, entry } of this.entries.values()) {
      if (!startsWith(key, queryKey)) continue;
      entry.state = { ...entry.state, updatedAt: 0 };
      fetches.push(entry.fetch(true));
    }
    await Promise.all(fetches);
  }

  /**
   * Watches a query as a component does: fetches it when stale and polls it while watched. `options` is read
   * afresh at every fetch and tick (a component's newest render); `listener` hears every change.
   */
  observe<T>(options: QueryOptions<T> | { current: QueryOptions<T> }, listener: Listener = () => {}): { stop: () => void; state: () => QueryState<T> } {
    const ref = 'current' in options ? options : { current: options };
    const entry = this.entry<T>(ref.current.queryKey);
    entry.seed(ref.current.initialData);
    entry.listeners.add(listener);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const interval = () => {
      const { refetchInterval } = ref.current;
      return typeof refetchInterval === 'function' ? refetchInterval({ state: entry.state }) : refetchInterval;
    };
    // Polls at a steady pace from the start (a fetch under way is joined, not doubled); a hidden page skips its turn.
    const tick = () => {
      const ms = interval();
      if (stopped || !ms) return;
      timer = setTimeout(() => {
        if (interval() && !(typeof document !== 'undefined' && document.visibilityState === 'hidden')) void entry.fetch();
        tick();
      }, ms);
    };
    if (ref.current.enabled !== false) {
      entry.active.add(ref);
      if (entry.isStale(ref.current.staleTime ?? 0)) void entry.fetch();
      tick();
    }
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
        entry.listeners.delete(listener);
        entry.active.delete(ref);
      },
      state: () => entry.state,
    };
  }
}

const QueryContext = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children?: ReactNode }) {
  return createElement(QueryContext.Provider, { value: client }, children);
}

export function useQueryClient(): QueryClient {
  const client = useContext(QueryContext);
  if (!client) throw new Error('useQueryClient outside QueryClientProvider');
  return client;
}

/** Typed options for a query shared by a hook and a test. */
export function queryOptions<T>(options: QueryOptions<T>): QueryOptions<T> {
  return options;
}

export type QueryResult<T> = QueryState<T> & { isLoading: boolean; isError: boolean };

/** A query's data (initial data until the first fetch) and state, kept up to date while the component is shown. */
export function useQuery<T>(options: QueryOptions<T> & { initialData: T }): QueryResult<T> & { data: T };
export function useQuery<T>(options: QueryOptions<T>): QueryResult<T>;
export function useQuery<T>(options: QueryOptions<T>): QueryResult<T> {
  const client = useQueryClient();
  const hash = hashKey(options.queryKey);
  const latest = useRef(options);
  latest.current = options;
  // The entry for this key; initial data seeds it during the first render so that the server and the browser agree.
  const entry = useMemo(() => {
    const found = client.entry<T>(options.queryKey);
    found.seed(options.initialData);
    return found;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, hash]);
  const subscribe = useCallback((listener: Listener) => {
    entry.listeners.add(listener);
    return () => { entry.listeners.delete(listener); };
  }, [entry]);
  const state = useSyncExternalStore(subscribe, () => entry.state, () => entry.state);
  const enabled = options.enabled !== false;
  const polls = Boolean(options.refetchInterval);
  const every = typeof options.refetchInterval === 'number' ? options.refetchInterval : 0;
  // Watching starts again when the key, enabling, staleness or polling change; other options are read live.
  useEffect(() => {
    if (!enabled) return;
    return client.observe<T>(latest).stop;
  }, [client, entry, enabled, polls, options.staleTime, every]);
  return { ...state, isLoading: state.status === 'pending', isError: state.status === 'error' };
}
