/** The console socket against a real WebSocket server on loopback. */
import { ANONYMOUS_USER, type User } from '@tessera/common/entities';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { setNavigator } from './navigator';
import { SocketClient, versionWatcher } from './socket';
import { useStore } from './store';

let server: WebSocketServer;
let port: number;
const connections: ServerSocket[] = [];
const received: unknown[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as { port: number }).port;
  server.on('connection', (ws) => {
    connections.push(ws);
    ws.on('message', (data) => received.push(JSON.parse(String(data))));
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let client: SocketClient;
afterEach(() => {
  client?.close();
  connections.length = 0;
  received.length = 0;
  useStore.setState({ self: ANONYMOUS_USER, areas: {}, alerts: [], carriedAlerts: [], online: true });
});

const USER: User = {
  ...ANONYMOUS_USER,
  id: 5,
  role: 'user',
  organizationId: 3,
  email: 'ada@acme.test',
  expires: Date.now() + 60_000,
};
const push = (payload: Record<string, unknown>) => connections.at(-1)?.send(JSON.stringify(['push', payload]));

function connect(): SocketClient {
  client = new SocketClient(() => `ws://127.0.0.1:${port}/ws?url=${encodeURIComponent('http://localhost/usage')}`);
  client.connect();
  return client;
}

describe('console socket (spec §4, §7)', () => {
  it('merges pushed keyed objects and keeps the journey id for the next connection', async () => {
    connect();
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    push({ version: 'v1', journeyId: 'journey-1', organizations: [{ id: 1, name: 'Acme' }] });
    await vi.waitFor(() => expect(useStore.getState().areas.organizations).toEqual({ 1: { id: 1, name: 'Acme' } }));
    expect(sessionStorage.getItem('tessera-journey')).toBe('journey-1');
    expect(useStore.getState().online).toBe(true);
  });

  it('subscribes to the user channels, queues messages while away, and resubscribes after a reconnect', async () => {
    connect();
    client.send(['hit', { index: 0, url: 'http://localhost/usage' }]); // before the socket is open: queued
    client.follow(USER);
    await vi.waitFor(() =>
      expect(received).toEqual(
        expect.arrayContaining([
          ['subscribe', 'self:5'],
          ['subscribe', 'organization:3'],
          ['hit', { index: 0, url: 'http://localhost/usage' }],
        ]),
      ),
    );
    received.length = 0;
    connections[0]?.terminate();
    await vi.waitFor(() => expect(useStore.getState().online).toBe(false));
    await vi.waitFor(() => expect(connections).toHaveLength(2), { timeout: 5000 });
    await vi.waitFor(() =>
      expect(received).toEqual([
        ['subscribe', 'self:5'],
        ['subscribe', 'organization:3'],
      ]),
    );
    expect(useStore.getState().online).toBe(true);
  });

  it('unsubscribes from channels the user no longer has', async () => {
    connect();
    client.follow(USER);
    await vi.waitFor(() => expect(received).toHaveLength(2));
    received.length = 0;
    client.follow({ ...USER, organizationId: null });
    await vi.waitFor(() => expect(received).toEqual([['unsubscribe', 'organization:3']]));
  });

  it("sends `clear` with the user's channels right behind it, and nothing while it is not open", async () => {
    connect();
    client.follow(USER);
    client.clear(); // not open yet: the open handler subscribes afresh
    await vi.waitFor(() => expect(received).toHaveLength(2));
    received.length = 0;
    client.clear();
    await vi.waitFor(() =>
      expect(received).toEqual([
        ['clear', null],
        ['subscribe', 'self:5'],
        ['subscribe', 'organization:3'],
      ]),
    );
  });

  it('reconnects when the signed-in user changes, so the server reads the new session', async () => {
    connect();
    client.follow(ANONYMOUS_USER);
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    client.follow(USER);
    await vi.waitFor(() => expect(connections).toHaveLength(2));
    await vi.waitFor(() =>
      expect(received).toEqual([
        ['subscribe', 'self:5'],
        ['subscribe', 'organization:3'],
      ]),
    );
  });

  it('treats a pushed anonymous self as the end of the session', async () => {
    const went: string[] = [];
    setNavigator((to) => went.push(to));
    useStore.setState({ self: USER });
    connect();
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    push({ self: ANONYMOUS_USER });
    await vi.waitFor(() => expect(useStore.getState().self).toEqual(ANONYMOUS_USER));
    expect(went).toEqual(['/login']);
    expect(useStore.getState().alerts.map((a) => a.text)).toEqual(['Your session has ended.']);
  });

  it('ignores what is not a push', async () => {
    connect();
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    connections[0]?.send('not json');
    connections[0]?.send(JSON.stringify(['refused', { message: 'no' }]));
    push({ version: 'v1' });
    await vi.waitFor(() => expect(useStore.getState().areas.version).toBe('v1'));
    expect(Object.keys(useStore.getState().areas)).toEqual(['version']);
  });
});

describe('version watcher (spec §1)', () => {
  it('reloads only when the version changes after the first value', () => {
    let reloads = 0;
    const watch = versionWatcher(() => reloads++);
    watch('v1');
    watch('v1');
    expect(reloads).toBe(0);
    watch('v2');
    expect(reloads).toBe(1);
  });
});
