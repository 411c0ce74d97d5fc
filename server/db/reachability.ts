import pg from 'pg';

/**
 * How long a pool connection may be held before the pool asks whether the database still answers, and how often it
 * looks. A request's statements are usually done in milliseconds; one that holds its connection longer is slow or
 * waits on a database that went silent, and only asking tells the two apart.
 */
const PROBE_AFTER_MS = 500;
const CHECK_EVERY_MS = 100;

interface ReachabilityOptions {
  /** Opens a connection of its own and runs one statement; rejects when the database does not answer in time. */
  probe(): Promise<void>;
  probeAfterMs?: number;
  checkEveryMs?: number;
  now?: () => number;
  /** Told once per probe the database did not answer. */
  onUnreachable?(error: unknown): void;
}

/**
 * Notices a database that stopped answering on connections the pool already holds (a network partition, a host
 * that went away without closing them): docs/operations.md, "When a service is away".
 *
 * A new connection has its timeout (connectionTimeoutMillis), but a statement sent on an open one waits until the
 * operating system gives up on the connection: TCP keepalive on Linux probes every 75 s (nine times) once the
 * connection has been idle, and Node sets only the idle time, so that is minutes, not seconds. A statement timeout
 * would notice sooner, but it also ends slow statements of a healthy database. So while a connection has been held
 * longer than `probeAfterMs`, the pool opens a fresh connection and runs `select 1`: when the database answers (even
 * with an error), the slow statements go on; when it does not (within the probe's timeouts), every connection held
 * since before the probe, and every idle one, is closed at once: their statements fail as a lost connection does
 * (the request answers 503), and the next requests open new connections, which fail within their own timeout while
 * the database stays away.
 */
export function watchReachability(pool: pg.Pool, options: ReachabilityOptions): { stop(): void } {
  const now = options.now ?? (() => performance.now());
  const probeAfterMs = options.probeAfterMs ?? PROBE_AFTER_MS;
  /** Every connection of the pool, with when it was last handed out (undefined while idle). */
  const heldSince = new Map<pg.PoolClient, number | undefined>();
  pool.on('connect', (client) => heldSince.set(client, undefined));
  pool.on('acquire', (client) => heldSince.set(client, now()));
  pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => {
    if (heldSince.has(client)) heldSince.set(client, undefined);
  });
  pool.on('remove', (client) => heldSince.delete(client));

  /** When the last probe the database answered was started: connections held since are not suspected again before probeAfterMs. */
  let answeredAt = Number.NEGATIVE_INFINITY;
  let probing = false;
  const suspect = (at: number) => [...heldSince.values()].some((since) => since !== undefined && Math.max(since, answeredAt) + probeAfterMs <= at);

  const timer = setInterval(() => {
    const at = now();
    if (probing || !suspect(at)) return;
    probing = true;
    options.probe().then(
      () => { answeredAt = at; },
      (error: unknown) => {
        // The database answered, with an error (too many connections, a shutdown under way): it is reachable.
        if (error instanceof pg.DatabaseError) {
          answeredAt = at;
          return;
        }
        options.onUnreachable?.(error);
        for (const [client, since] of heldSince) if (since === undefined || since <= at) dropConnection(client);
      },
    ).finally(() => { probing = false; });
  }, options.checkEveryMs ?? CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Closes a client's socket at once: its waiting statements fail with "Connection terminated unexpectedly". Ending it
 * politely (`client.end()`) would wait for a database that does not answer.
 */
function dropConnection(client: pg.ClientBase): void {
  (client as pg.Client).connection.stream.destroy();
}

/** A probe: a fresh connection that must open, and answer `select 1`, within `timeoutMs` each. */
export function probeDatabase(config: pg.ClientConfig, timeoutMs: number): () => Promise<void> {
  return async () => {
    const client = new pg.Client({ ...config, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
    } catch (error) {
      dropConnection(client);
      throw error;
    }
  };
}
