/**
 * HAProxy in tests: Debian's haproxy, in the foreground (`-db`) on a free loopback port, with a config the test
 * writes (given the port to bind and a path for an admin socket) into a scratch folder of its own. The test that
 * uses one starts and stops it (kill, then wait for its exit). Runs without a shell.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './process';
import { scratchDir } from './scratch-dir';

export const HAPROXY = '/usr/sbin/haproxy';

/** Where the config must bind and put its admin socket (`stats socket <adminSocket> level admin`). */
export interface HaproxyPlace {
  port: number;
  adminSocket: string;
}

export interface TestHaproxy {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** A command on the admin socket (`show stat`, `show servers state`...): what it answered. */
  admin(command: string): Promise<string>;
  /** A server's status as `show stat` tells it: 'UP', 'DOWN', 'UP 1/2', 'MAINT'... */
  serverStatus(backend: string, server: string): Promise<string>;
  /** What it wrote so far (its log, when the config logs to stdout). */
  output(): string;
  stop(): Promise<void>;
}

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

function askSocket(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
    });
    // Without `prompt` mode HAProxy answers one command and closes the connection.
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
    socket.once('connect', () => socket.write(`${command}\n`));
  });
}

/** Starts HAProxy with the config `render` writes for the place given; resolves once it accepts connections. */
export async function startHaproxy(render: (place: HaproxyPlace) => string): Promise<TestHaproxy> {
  const dir = scratchDir('haproxy');
  const port = await freePort();
  const adminSocket = path.join(dir, 'admin.sock');
  const cfg = path.join(dir, 'haproxy.cfg');
  writeFileSync(cfg, render({ port, adminSocket }));

  const proc: ChildProcess = spawn(HAPROXY, ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
  };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  proc.once('error', (err) => {
    out += `${err.message}\n`;
  });
  const stop = async () => {
    if (!gone) proc.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };

  // Waited for by trying, not by time: it accepts once it has read its config and bound the port.
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (gone || tries >= 200) {
      await stop();
      throw new Error(`haproxy did not start on port ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const admin = (command: string) => askSocket(adminSocket, command);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    admin,
    async serverStatus(backend, server) {
      const lines = (await admin('show stat')).trim().split('\n');
      const header = lines[0]!.replace(/^# /, '').split(',');
      const column = header.indexOf('status');
      const row = lines.map((l) => l.split(',')).find((cells) => cells[0] === backend && cells[1] === server);
      if (!row || column < 0) throw new Error(`haproxy has no server ${backend}/${server}:\n${lines.join('\n')}`);
      return row[column]!;
    },
    output: () => out,
    stop,
  };
}
