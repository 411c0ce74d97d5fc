import { createServer, connect, type Socket } from 'node:net';

/**
 * A TCP proxy a test puts in front of a service (PostgreSQL, Redis, SMTP, S3) to take it away and give it back.
 * `cut('refuse')` drops every connection and refuses new ones at once (a stopped service); `cut('blackhole')`
 * drops every connection and accepts new ones but forwards nothing (the client waits); `cut('partition')` is a
 * network partition: open connections stay open and go silent, in both directions, and new ones are accepted and
 * never answered. Nothing tells the client: no reset, no close (and the proxy's own TCP stack still answers
 * keepalive probes, as a stateful firewall in between may).
 */
export type CutMode = 'refuse' | 'blackhole' | 'partition';

export interface TcpProxy {
  port: number;
  /** host:port of the proxy, for a URL's authority. */
  address: string;
  cut(mode?: CutMode): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  let state: 'open' | CutMode = 'open';
  const sockets = new Set<Socket>();
  /** The open connections' two sides, to silence them in a partition. */
  const pairs = new Set<[Socket, Socket]>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    // A refused connection is reset at once, as a port nobody listens on answers.
    if (state === 'refuse') return void client.resetAndDestroy();
    // Accepted, then nothing: the client sent its bytes and waits for an answer that never comes.
    if (state === 'blackhole' || state === 'partition') return void client.pause();
    const upstream = connect(target.port, host);
    track(upstream);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.once('close', () => client.destroy());
    client.once('close', () => {
      upstream.destroy();
      pairs.delete(pair);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  const dropAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    pairs.clear();
  };
  const silenceAll = () => {
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  };
  return {
    port,
    address: `127.0.0.1:${port}`,
    cut(mode = 'refuse') {
      state = mode;
      if (mode === 'partition') silenceAll();
      else dropAll();
    },
    restore() {
      // Blackholed connections never carried anything, and those a partition silenced lost their place in the
      // conversation: their clients see them end (as a firewall that forgot them resets them) and connect again.
      if (state === 'blackhole' || state === 'partition') dropAll();
      state = 'open';
    },
    close: () => new Promise<void>((resolve) => {
      dropAll();
      server.close(() => resolve());
    }),
  };
}
