/** Starts the real server (`server/src/main.ts`) as a child process for browser tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Child, freePort, runChild } from '@tessera/server/test/process';

export const ROOT = { email: 'root@tessera.test', password: 'Root-passw0rd!' };

export interface RunningServer {
  url: string;
  port: number;
  child: Child;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  env?: Record<string, string>;
  port?: number;
  /** Keep the same storage as an earlier server (restart). */
  dataDir?: string;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tessera-e2e-'));
  const env: Record<string, string> = {
    PORT: String(port),
    DATA_DIR: dataDir,
    ROOT_EMAIL: ROOT.email,
    ROOT_PASSWORD: ROOT.password,
    TESSERA_VERSION: 'e2e-1',
    ...options.env,
  };
  const child = runChild(['server/src/main.ts'], env);
  await child.waitFor('Tessera console:', 60_000);
  return {
    url: `http://localhost:${port}`,
    port,
    child,
    env,
    async stop() {
      if (child.proc.exitCode !== null) return;
      child.proc.kill('SIGTERM');
      await child.exited;
    },
  };
}
