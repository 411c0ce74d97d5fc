import pg from 'pg';
import type { Logger } from './logger.ts';

/** The channel a commit that wrote outbox rows notifies (pg_notify in the insert, delivered at commit). */
export const OUTBOX_CHANNEL = 'amora_outbox';

/**
 * Wakes this worker when any instance commits outbox rows: a connection of its own that LISTENs on the outbox channel.
 * A lost connection is opened again (waiting longer each time, up to 30 s) and wakes the worker once it is back, for
 * what was committed meanwhile; until then the worker's slow poll delivers.
 */
export function listenForOutbox(options: { url: string; onWake: () => void; logger: Pick<Logger, 'error' | 'info'> }) {
  const { url, onWake, logger } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 1_000;
  let retryTimer: NodeJS.Timeout | undefined;
  let resolveReady: () => void;
  const ready = new Promise<void>((resolve) => { resolveReady = resolve; });

  function retry(reason: string) {
    if (closed || retryTimer) return;
    logger.error(`outbox: listening for new rows failed (${reason}); trying again in ${retryMs / 1000} s, polling meanwhile`);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(30_000, retryMs * 2);
  }

  async function connect() {
    const next = new pg.Client({ connectionString: url });
    next.on('error', (error: Error) => retry(error.message));
    next.on('end', () => { if (client === next) retry('connection ended'); });
    next.on('notification', () => onWake());
    try {
      await next.connect();
      await next.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => {});
      retry(error instanceof Error ? error.message : String(error));
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    retryMs = 1_000;
    resolveReady();
    // Rows committed while nobody listened.
    onWake();
  }

  void connect();
  return {
    /** Resolves once the first LISTEN is in place (tests). */
    ready,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
