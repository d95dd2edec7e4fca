/** Starts the real server (`server/src/main.ts`) as a child process for browser tests. */
import net from 'node:net';
import type { Role } from '@tessera/common/roles';
import { migratedDataDir } from '@tessera/server/test/pglite-template';
import { type Child, freePort, runChild, runCli } from '@tessera/server/test/process';

export const ROOT = { email: 'root@tessera.test', password: 'Root-passw0rd!' };

/** Someone who signs in with an e-mail and a password. */
export interface Account {
  email: string;
  password: string;
}

/** A user the operator creates with `tessera user create` before the server starts. */
export interface SeedUser extends Account {
  role: Exclude<Role, 'anonymous'>;
  name?: string;
  /** Leave the agreement unaccepted, so they act as a signer once signed in (spec §4). */
  signer?: boolean;
}

export interface SeededUser extends SeedUser {
  id: number;
}

export interface RunningServer {
  url: string;
  port: number;
  child: Child;
  env: Record<string, string>;
  /** The users made by the CLI before the start, in the order asked for. */
  users: SeededUser[];
  stop(): Promise<void>;
}

export interface ServerOptions {
  env?: Record<string, string>;
  port?: number;
  /** Keep the same storage as an earlier server (restart). */
  dataDir?: string;
  /** Users to create with the CLI on the same storage before the server takes its lock. */
  users?: SeedUser[];
}

/** A password the server accepts (spec §5: upper, lower, digit, symbol, 8+). */
export const PASSWORD = 'E2e-passw0rd!';

let seq = 0;
/** A user of `role` with a unique address, to hand to `startServer({ users })`. */
export function seedUser(role: SeedUser['role'], options: { name?: string; signer?: boolean } = {}): SeedUser {
  seq += 1;
  return { email: `${role}-${process.pid}-${seq}@tessera.test`, password: PASSWORD, role, name: '', ...options };
}

/**
 * Creates users the way an operator does: `tessera user create` against the server's storage, run before the
 * server starts (the embedded database allows one process at a time). The first run also makes root, since it
 * gets the same ROOT_* settings the server will.
 */
async function createUsers(env: Record<string, string>, users: SeedUser[]): Promise<SeededUser[]> {
  const created: SeededUser[] = [];
  for (const user of users) {
    const { code, output } = await runCli(
      ['user', 'create', '--email', user.email, '--role', user.role, '--name', user.name ?? ''],
      { ...env, TESSERA_PASSWORD: user.password },
    );
    const id = new RegExp(`Created ${user.role} user (\\d+) <`).exec(output)?.[1];
    if (code !== 0 || !id) throw new Error(`tessera user create ${user.email} failed (${code}):\n${output}`);
    created.push({ ...user, id: Number(id) });
  }
  return created;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? migratedDataDir('e2e');
  const env: Record<string, string> = {
    PORT: String(port),
    DATA_DIR: dataDir,
    ROOT_EMAIL: ROOT.email,
    ROOT_PASSWORD: ROOT.password,
    TESSERA_VERSION: 'e2e-1',
    // Seeding 10,000 identities takes seconds on PGlite; browser tests of other features do not need them.
    SEED_IDENTITIES: '0',
    ...options.env,
  };
  const users = await createUsers(env, options.users ?? []);
  const child = runChild(['server/src/main.ts'], env);
  await child.waitFor('Tessera console:');
  return {
    url: `http://localhost:${port}`,
    port,
    child,
    env,
    users,
    async stop() {
      if (child.proc.exitCode !== null) return;
      child.proc.kill('SIGTERM');
      await child.exited;
    },
  };
}

/**
 * Keeps a stopped server's port taken until `release`: every connection is refused at once, as by a server that
 * is down, and no other test's server (the groups run side by side) can be given the port meanwhile and answer
 * the page in its place.
 */
export async function holdPort(port: number): Promise<{ release: () => Promise<void> }> {
  // The server listens on `localhost`: both loopback addresses (::1 only where the machine has it).
  const holders = await Promise.all(
    ['127.0.0.1', '::1'].map(
      (host) =>
        new Promise<net.Server | null>((resolve, reject) => {
          const holder = net.createServer((socket) => socket.destroy());
          holder.once('error', (error: NodeJS.ErrnoException) =>
            host === '::1' && error.code === 'EADDRNOTAVAIL' ? resolve(null) : reject(error),
          );
          holder.listen(port, host, () => resolve(holder));
        }),
    ),
  );
  const release = () =>
    Promise.all(holders.map((h) => h && new Promise<void>((done) => h.close(() => done())))).then(() => undefined);
  return { release };
}
