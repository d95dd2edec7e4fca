/** Runs the real server or CLI as a child process, the way an operator would. */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { inject } from 'vitest';
import { REPO_ROOT } from '../config';
import { scratchDatabase } from './databases';
import { migratedDataDir } from './pglite-template';
import type {} from './provided-context';
import { scratchDir } from './scratch-dir';

/**
 * Node with tsx loaded in process, as `npm start` runs the server. Not tsx's own command: it relays signals to a
 * child and kills it when it has not acknowledged one within 30 ms, as a busy server may not have.
 */
const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;

/** Environment for a child that uses this run's database: the PostgreSQL one, or a new, migrated PGlite folder. */
export function storageEnv(dataDir?: string): Record<string, string> {
  const url = inject('databaseUrl');
  if (url) return { DATABASE_URL: url, DATA_DIR: dataDir ?? scratchDir('data') };
  return { DATA_DIR: dataDir ?? migratedDataDir('data') };
}

/** Like storageEnv, but the database is new and empty (for first-start behaviour); drop it when done. */
export async function emptyStorageEnv(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = scratchDir('data');
  const base = inject('databaseUrl') ? process.env.TEST_DATABASE_URL : undefined;
  if (!base) return { env: { DATA_DIR: dataDir }, drop: async () => {} };
  const scratch = await scratchDatabase(base, 'process');
  return { env: { DATABASE_URL: scratch.url, DATA_DIR: dataDir }, drop: scratch.drop };
}

export interface ServerProcess {
  child: Child;
  base: string;
  /** The storage it was given (an empty database of its own), to open beside it. */
  storage: Record<string, string>;
  /** Drops that storage; the test stops the process first. */
  drop: () => Promise<void>;
}

/** A server process (main.ts) of the test's own, on empty storage and a free port, once it says it is ready. */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const { env: storage, drop } = await emptyStorageEnv();
  const port = await freePort();
  const child = runChild(['server/src/main.ts'], { ...storage, PORT: String(port), SEED_IDENTITIES: '0', ...env });
  await child.waitFor('Tessera console:');
  return { child, base: `http://127.0.0.1:${port}`, storage, drop };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  /** stdout and stderr as they came. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** After the exit, once stdout and stderr have been read to their end. */
  closed: Promise<void>;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** `plain`: node with no TypeScript loader, for compiled JavaScript (server/dist). */
export function runChild(args: string[], env: Record<string, string>, runtime: 'tsx' | 'plain' = 'tsx'): Child {
  const [node, ...loader] = NODE_WITH_TSX;
  const proc = spawn(node, [...(runtime === 'tsx' ? loader : []), ...args], {
    cwd: REPO_ROOT,
    // One process unless a test asks for more: a server's output, memory and pid are then the process's own.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const apart = { stdout: '', stderr: '' };
  const listeners: (() => void)[] = [];
  const collect = (stream: keyof typeof apart) => (chunk: Buffer) => {
    out += chunk.toString();
    apart[stream] += chunk.toString();
    for (const l of [...listeners]) l();
  };
  proc.stdout!.on('data', collect('stdout'));
  proc.stderr!.on('data', collect('stderr'));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => proc.on('close', () => resolve()));
  return {
    proc,
    output: () => out,
    stdout: () => apart.stdout,
    stderr: () => apart.stderr,
    exited,
    closed,
    waitFor(text, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (out.includes(text)) {
            listeners.splice(listeners.indexOf(check), 1);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => reject(new Error(`"${text}" never appeared in:\n${out}`)), timeoutMs);
        listeners.push(check);
        check();
        void exited.then(() => setTimeout(() => reject(new Error(`exited before "${text}":\n${out}`)), 50));
      });
    },
  };
}

/** Runs a CLI command to its end: the TypeScript source on tsx, or with `script` another (a compiled cli.js). */
export async function runCli(args: string[], env: Record<string, string>, script?: string) {
  const child = script ? runChild([script, ...args], env, 'plain') : runChild(['server/src/cli/main.ts', ...args], env);
  const code = await child.exited;
  await child.closed;
  return { code, output: child.output(), stdout: child.stdout(), stderr: child.stderr() };
}
