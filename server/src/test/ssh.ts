/**
 * OpenSSH in tests: keys made with ssh-keygen, and a real sshd on a free loopback port with its own config, host
 * key and pid file in a folder of its own (under /run: sshd refuses an AuthorizedKeysCommand below a world-writable
 * folder such as /tmp). Every program runs without a shell.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SSHD = '/usr/sbin/sshd';

/** A scratch folder for keys (removed by the caller with `rmSync`). */
export const keyDir = () => mkdtempSync(path.join(tmpdir(), 'tessera-ssh-keys-'));

export interface TestKey {
  /** The private key's file. */
  file: string;
  /** The .pub file's text. */
  publicKey: string;
}

/** A key made by ssh-keygen: `type` as -t takes it (ed25519, ecdsa, rsa, dsa), `bits` as -b. */
export function keygen(dir: string, name: string, type: string, bits?: number): TestKey {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(bits ? ['-b', String(bits)] : []),
    '-N',
    '',
    '-C',
    name,
    '-f',
    file,
  ]);
  return { file, publicKey: readFileSync(`${file}.pub`, 'utf8') };
}

/** The SHA256 fingerprint `ssh-keygen -lf` prints for a file. */
export function keygenFingerprint(file: string): string {
  return execFileSync('ssh-keygen', ['-lf', file], { encoding: 'utf8' }).split(' ')[1]!;
}

/** What `ssh-keygen -Lf` says of a certificate file. */
export const describeCertificate = (file: string) => execFileSync('ssh-keygen', ['-Lf', file], { encoding: 'utf8' });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface TestSshd {
  port: number;
  dir: string;
  close(): Promise<void>;
}

/**
 * sshd that lets in as root (keys only) the keys the product's AuthorizedKeysCommand endpoint lists for `group`
 * at `serverUrl` with `token`, and certificates signed by the CA key `caPublicKey`.
 */
export async function startSshd(options: {
  serverUrl: string;
  group: string;
  token: string;
  caPublicKey: string;
}): Promise<TestSshd> {
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation folder
  const dir = mkdtempSync('/run/tessera-sshd-');
  chmodSync(dir, 0o755);
  const port = await freePort();
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_ed25519')]);
  const command = path.join(dir, 'authorized-keys');
  const url = `${options.serverUrl}/v2/ssh/authorized_keys?group=${options.group}&user=`;
  writeFileSync(
    command,
    `#!/bin/sh\nexec curl -fsS --max-time 10 -H 'Authorization: Bearer ${options.token}' '${url}'"$1"\n`,
    { mode: 0o755 },
  );
  writeFileSync(path.join(dir, 'ca.pub'), `${options.caPublicKey}\n`, { mode: 0o644 });
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_ed25519')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'AuthorizedKeysFile none',
      `AuthorizedKeysCommand ${command} %u`,
      'AuthorizedKeysCommandUser nobody',
      `TrustedUserCAKeys ${path.join(dir, 'ca.pub')}`,
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sshd did not start:\n${log}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited (${code}):\n${log}`));
    });
  });
  child.stderr!.resume();
  return {
    port,
    dir,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `true` as `user` over ssh with the key (and certificate, when given); whether it logged in. Nothing but
 * the given key is offered: no agent, no default keys, no config file.
 */
export function sshLogin(port: number, key: string, options: { user?: string; certificate?: string } = {}) {
  const args = [
    '-F',
    '/dev/null',
    '-i',
    key,
    ...(options.certificate ? ['-o', `CertificateFile=${options.certificate}`] : []),
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'ConnectTimeout=20',
    '-o',
    'LogLevel=ERROR',
    '-p',
    String(port),
    `${options.user ?? 'root'}@127.0.0.1`,
    'true',
  ];
  const env = { ...process.env };
  delete env.SSH_AUTH_SOCK;
  return new Promise<{ ok: boolean; stderr: string }>((resolve) => {
    execFile('ssh', args, { env, timeout: 60_000 }, (error, _stdout, stderr) => resolve({ ok: !error, stderr }));
  });
}
