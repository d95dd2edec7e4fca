import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { accessLines, requestOnce } from './test/access-lines';
import { CONSOLE_HEADERS } from './test/harness';
import { emptyStorageEnv, freePort, runChild, storageEnv } from './test/process';
import { openSocket } from './test/socket-client';

/** Sends the headers and half the body of a request, so it is in flight until `finish` is called. */
function halfRequest(port: number, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (d) => {
    response += d.toString();
  });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nX-Requested-With: XMLHttpRequest\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
    finish: async () => {
      socket.write(body.slice(half));
      await ended;
      return response;
    },
  };
}

describe('the server process', { timeout: 120_000 }, () => {
  it('keeps its data across restarts and drains on SIGTERM', async () => {
    const { env: storage, drop } = await emptyStorageEnv();
    const email = `root-${randomUUID()}@tessera.test`;
    const port = await freePort();
    const env = {
      ...storage,
      PORT: String(port),
      ROOT_EMAIL: email,
      ROOT_PASSWORD: 'Root-passw0rd!',
      TESSERA_VERSION: 'p1',
      SEED_IDENTITIES: '0',
    };

    const first = runChild(['server/src/main.ts'], env);
    await first.waitFor(`Tessera console: http://localhost:${port}/`);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    const inFlight = halfRequest(port, JSON.stringify({ email, password: 'Wrong-passw0rd!' }));
    await inFlight.connected;
    await new Promise((r) => setTimeout(r, 100)); // let the server read the headers
    const socket = await openSocket(`http://127.0.0.1:${port}`);
    first.proc.kill('SIGTERM');

    expect((await socket.closed).code).toBe(1001);
    // A new connection is refused; one kept alive from before is told 503 while the server drains.
    const late = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(['refused', 503]).toContain(late);
    const response = await inFlight.finish();
    expect(response).toMatch(/^HTTP\/1\.1 401/);
    expect(await first.exited).toBe(0);

    // Started again on the same storage: the root user made the first time can still sign in.
    const second = runChild(['server/src/main.ts'], { ...env, ROOT_EMAIL: `other-${email}` });
    await second.waitFor('Tessera console:');
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: CONSOLE_HEADERS,
      body: JSON.stringify({ email, password: 'Root-passw0rd!' }),
    });
    expect(login.status).toBe(200);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await drop();
  }, 240_000); // two starts of the server on a machine as loaded as CI's (a bound, not a measure)

  it('has written the access line of every request answered before SIGTERM when it exits', async () => {
    const port = await freePort();
    // On PostgreSQL this is a process per core (decision 0043); on the embedded database, one process.
    const child = runChild(['server/src/main.ts'], {
      ...storageEnv(),
      PORT: String(port),
      SEED_IDENTITIES: '0',
      LOG_LEVEL: 'info',
    });
    await child.waitFor('Tessera console:');
    const answered = await Promise.all(Array.from({ length: 200 }, () => requestOnce(port, 'GET', '/healthz')));
    child.proc.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    expect(answered.every((a) => a.status === 200)).toBe(true);
    const logged = new Set(accessLines(child.output()).map((l) => l.reqId));
    expect(answered.filter((a) => !logged.has(a.id)).map((a) => a.id)).toEqual([]);
  });

  it('refuses to start with a bad configuration, naming it', async () => {
    const child = runChild(['server/src/main.ts'], { ...storageEnv(), PORT: 'eighty' });
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('Invalid configuration: PORT');
  });
});
