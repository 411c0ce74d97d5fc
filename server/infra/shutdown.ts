import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from './logger.ts';

/** How often idle keep-alive connections are closed while shutting down. */
const IDLE_SWEEP_MS = 200;

/** Resolves after the event loop's next poll phase, in which it accepts connections and reads sockets. */
const afterNextPoll = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 0));

/** One thing to close once no request runs any more, in order (notifications, mail, database). */
export interface ShutdownStep {
  name: string;
  run(): Promise<unknown> | unknown;
}

export interface ShutdownOptions {
  server: Server;
  logger: Pick<Logger, 'info' | 'error'>;
  /** How long running requests may take after the signal; then their connections are destroyed. */
  timeoutMs: number;
  /** Run one after the other once HTTP is drained; a failing step is logged and the next one still runs. */
  steps: ShutdownStep[];
  /**
   * Long-lived connections that are not requests (live sockets): closed as HTTP starts draining,
   * since the listening socket only finishes closing once every connection has ended.
   */
  upgraded?: ShutdownStep[];
  exit?: (code: number) => void;
  /** Called once as the shutdown begins (readiness fails from then on). */
  onStart?: () => void;
}

/**
 * Graceful shutdown of one process. On the first signal: stop accepting connections, close idle
 * keep-alive connections, let running requests finish (their responses, and any request that still
 * arrives on an open connection, carry `Connection: close`), destroy what is left after `timeoutMs`,
 * then run the steps and exit 0. A second signal exits at once with 1.
 */
export function createShutdown(options: ShutdownOptions) {
  const { server, logger, timeoutMs, steps } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  /** Requests being answered, per connection. */
  const active = new Map<Socket, Set<ServerResponse>>();
  let started: Promise<number> | null = null;
  let accepted = 0;

  server.on('connection', (socket: Socket) => {
    active.set(socket, new Set());
    accepted++;
    socket.once('close', () => active.delete(socket));
  });
  /** Answers given during the shutdown end their keep-alive connection; counted for the log. */
  let closedAfterAnswer = 0;
  const closeAfter = (res: ServerResponse) => {
    res.setHeader('Connection', 'close');
    closedAfterAnswer++;
  };
  // Before the application's own listener, so the header is there before it writes the response head.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const running = active.get(socket) ?? new Set();
    active.set(socket, running);
    running.add(res);
    if (started) closeAfter(res);
    res.once('close', () => running.delete(res));
  });

  function runningRequests(): number {
    let n = 0;
    for (const running of active.values()) n += running.size;
    return n;
  }

  async function drainHttp(deadline: number): Promise<void> {
    // Connections the kernel already accepted but the busy event loop has not taken yet (a loaded
    // loop takes about one per turn) would be reset when the listening socket closes: keep taking
    // them until a whole turn brings none, then stop listening.
    for (;;) {
      const before = accepted;
      await afterNextPoll();
      if (accepted === before || performance.now() > deadline) break;
    }
    // http.Server#close would also close idle connections at once, and under load a connection
    // counts as idle while the request it already carries still waits unread in the socket: the
    // client would see a reset. So only the listening socket closes now.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    for (const running of active.values()) {
      for (const res of running) if (!res.headersSent) closeAfter(res);
    }
    // Idle connections close once the event loop has read what already arrived (the immediate runs
    // after a poll phase), and again as long as connections remain.
    const closeIdle = () => setImmediate(() => server.closeIdleConnections());
    const sweeper = setInterval(closeIdle, IDLE_SWEEP_MS);
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - performance.now())); });
    const outcome = await Promise.race([closed, timeUp]);
    clearTimeout(timer);
    clearInterval(sweeper);
    if (outcome === 'timeout') {
      logger.error(`shutdown: ${runningRequests()} request(s) still running after ${timeoutMs} ms; closing their connections`);
      server.closeAllConnections();
      await closed;
    }
  }

  async function run(reason: string): Promise<number> {
    const begin = performance.now();
    const since = () => `${Math.round(performance.now() - begin)} ms`;
    options.onStart?.();
    logger.info(`shutdown: ${reason}; no new connections, ${runningRequests()} running request(s) may finish (up to ${timeoutMs} ms)`);
    let code = 0;
    const upgradedClosed = runSteps(options.upgraded ?? [], since).then((failed) => { if (failed) code = 1; });
    await drainHttp(begin + timeoutMs);
    await upgradedClosed;
    logger.info(`shutdown: HTTP closed after ${since()}; ${closedAfterAnswer} answer(s) closed their connection`);
    if (await runSteps(steps, since)) code = 1;
    logger.info(`shutdown: done after ${since()}`);
    return code;
  }

  /** Runs steps one after the other; a failing step is logged and the next one still runs. Returns whether one failed. */
  async function runSteps(list: ShutdownStep[], since: () => string): Promise<boolean> {
    let failed = false;
    for (const step of list) {
      try {
        await step.run();
        logger.info(`shutdown: ${step.name} closed after ${since()}`);
      } catch (error) {
        failed = true;
        logger.error(`shutdown: closing ${step.name} failed:`, error);
      }
    }
    return failed;
  }

  /** Starts the shutdown once; later calls return the same outcome (the exit code). */
  function shutdown(reason: string): Promise<number> {
    started ??= run(reason);
    return started;
  }

  return {
    shutdown,
    /** Shuts down on these signals and exits; a second signal exits at once. */
    listen(signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']) {
      for (const signal of signals) {
        process.on(signal, () => {
          if (started) {
            logger.error(`shutdown: ${signal} again; exiting now`);
            exit(1);
            return;
          }
          void shutdown(`${signal} received`).then(exit, (error: unknown) => {
            logger.error('shutdown failed:', error);
            exit(1);
          });
        });
      }
    },
  };
}
