/**
 * PgBouncer in tests: Debian's pgbouncer (1.18, which cannot carry named prepared statements in transaction mode)
 * in transaction mode on a free loopback port, with its own ini and userlist in a scratch folder, in front of the
 * PostgreSQL server of a test URL. The test that uses one starts and stops it. Runs without a shell.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './process';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface TestPgBouncer {
  port: number;
  /** A URL of the same server, user and database, through this PgBouncer. */
  via(url: string): string;
  /** One command on its admin console (RECONNECT, SHOW SERVERS...); the rows it answers. */
  admin(command: string): Promise<Record<string, unknown>[]>;
  /** What it logged so far. */
  output(): string;
  stop(): Promise<void>;
}

/** PgBouncer refuses to run as root: there it runs as the postgres user (Debian's PostgreSQL makes one). */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('pgbouncer does not run as root, and this machine has no postgres user to run it as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts PgBouncer for every database of `serverUrl`'s server (a `*` entry), `poolSize` server connections per
 * database and user: fewer than the clients' connections, so each server connection serves several clients.
 * `settings` adds lines to its [pgbouncer] section.
 */
export async function startPgBouncer(
  serverUrl: string,
  options: { poolSize?: number; settings?: Record<string, string | number> } = {},
): Promise<TestPgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  // Not under the run's scratch folder (scratch-dir.ts): that one is root's alone, and PgBouncer may run as postgres.
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-pgbouncer-'));
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const userlist = path.join(dir, 'userlist.txt');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      // No Unix socket: its file would be /tmp/.s.PGSQL.<port>, shared with whatever else uses that port number.
      'unix_socket_dir =',
      'auth_type = trust',
      `admin_users = ${user}`,
      `auth_file = ${userlist}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 200',
      ...Object.entries(options.settings ?? {}).map(([name, value]) => `${name} = ${value}`),
      '',
    ].join('\n'),
  );
  // With trust the user must still be listed; a password given here is the one PgBouncer logs in to the server with.
  writeFileSync(userlist, `${quoted(user)} ${quoted(decodeURIComponent(server.password))}\n`, { mode: 0o600 });
  const owner = runAs();
  if (owner) for (const file of [dir, ini, userlist]) chownSync(file, owner.uid, owner.gid);

  const proc: ChildProcess = spawn(PGBOUNCER, [ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(owner ?? {}),
  });
  let out = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  proc.stderr!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const stop = async () => {
    if (!gone) proc.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };

  // Waited for by trying, not by time: it accepts once it has read its files and bound the port.
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (gone || tries >= 200) {
      await stop();
      throw new Error(`pgbouncer did not start on port ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    via(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    async admin(command) {
      const client = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
      await client.connect();
      try {
        // The admin console speaks only the simple protocol: a query without parameters.
        return (await client.query(command)).rows;
      } finally {
        await client.end();
      }
    },
    output: () => out,
    stop,
  };
}
