import { createServer, connect, type Socket } from 'node:net';

/**
 * A TCP proxy a test puts in front of a service (PostgreSQL, Redis, SMTP, S3) to take it away and give it back.
 * `cut('refuse')` drops every connection and refuses new ones at once (a stopped service); `cut('blackhole')`
 * drops every connection and accepts new ones but forwards nothing (a network partition: the client waits).
 */
export type CutMode = 'refuse' | 'blackhole';

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
    if (state === 'blackhole') return void client.pause();
    const upstream = connect(target.port, host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  const dropAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
  };
  return {
    port,
    address: `127.0.0.1:${port}`,
    cut(mode = 'refuse') {
      state = mode;
      dropAll();
    },
    restore() {
      // Blackholed connections never carried anything: their clients see them end and connect again.
      if (state === 'blackhole') dropAll();
      state = 'open';
    },
    close: () => new Promise<void>((resolve) => {
      dropAll();
      server.close(() => resolve());
    }),
  };
}
