/**
 * A TCP proxy on loopback between the server and its database, for the fault suite: it passes bytes through, and on
 * demand cuts every connection (reset, and refuses new ones) or stalls them (holds bytes both ways, as a network
 * partition does), until restored.
 */
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections made through it so far. */
  readonly connections: number;
  /** Resets every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Holds every byte, both ways, on open and new connections alike. */
  stall(): void;
  /**
   * Once: the first connection whose client sends bytes holding `pattern` has them passed on, but nothing of the
   * answer passed back; after `holdMs` that connection is reset. A statement sent so commits on the server while
   * its client never learns it did (an acknowledgement lost). Resolves when it has happened.
   */
  loseAnswerTo(pattern: string, holdMs: number): Promise<void>;
  /** Passes bytes again (a stall's held bytes go on), and accepts connections again after a cut. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let stalled = false;
  let trap: { pattern: Buffer; holdMs: number; sprung: () => void } | null = null;
  let connections = 0;
  const flow = (pair: Pair) => {
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  };
  const watch = (pair: Pair) => {
    pair.client.on('data', (chunk: Buffer) => {
      if (!trap || !chunk.includes(trap.pattern)) return;
      const { holdMs, sprung } = trap;
      trap = null;
      // The chunk itself is on its way upstream (pipe); the answer is dropped from now on.
      pair.upstream.unpipe(pair.client);
      pair.upstream.on('data', () => {});
      setTimeout(() => {
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
        sprung();
      }, holdMs);
    });
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  };
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (stalled) hold(pair);
    else flow(pair);
    watch(pair);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const closeListener = () => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    port,
    get connections() {
      return connections;
    },
    async cut() {
      const closed = closeListener();
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await closed;
    },
    loseAnswerTo(pattern, holdMs) {
      return new Promise<void>((resolve) => {
        trap = { pattern: Buffer.from(pattern), holdMs, sprung: resolve };
      });
    },
    stall() {
      stalled = true;
      for (const pair of pairs) hold(pair);
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const pair of pairs) flow(pair);
      }
      if (!server.listening) await listen(port);
    },
    async close() {
      stalled = false;
      const closed = server.listening ? closeListener() : Promise.resolve();
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await closed;
    },
  };
}
