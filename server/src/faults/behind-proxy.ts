/**
 * The real server process on PostgreSQL behind a TCP proxy on loopback (test/tcp-proxy.ts), for the fault suite: the
 * proxy can cut, stall or lose answers while the server runs.
 */
import { type Child, freePort, runChild } from '../test/process';
import { type TcpProxy, tcpProxy } from '../test/tcp-proxy';

export interface ProxiedServer {
  proxy: TcpProxy;
  child: Child;
  base: string;
  /** Stops the server (SIGTERM, waited for) and the proxy. */
  stop(): Promise<void>;
}

export async function serverBehindProxy(databaseUrl: string, env: Record<string, string> = {}): Promise<ProxiedServer> {
  const target = new URL(databaseUrl);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(databaseUrl);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const port = await freePort();
  const child = runChild(['server/src/main.ts'], {
    DATABASE_URL: viaProxy.toString(),
    PORT: String(port),
    SEED_IDENTITIES: '0',
    ...env,
  });
  await child.waitFor('Tessera console:');
  return {
    proxy,
    child,
    base: `http://127.0.0.1:${port}`,
    async stop() {
      await proxy.restore();
      child.proc.kill('SIGTERM');
      await child.exited;
      await proxy.close();
    },
  };
}
