/** A pushed `notice` (a usage alert, decision 0029) joins the alert stack, without HTML, and no data area. */
import { ANONYMOUS_USER } from '@tessera/common/entities';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { SocketClient } from './socket';
import { useStore } from './store';

let server: WebSocketServer;
let port: number;
const connections: ServerSocket[] = [];
beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as { port: number }).port;
  server.on('connection', (ws) => connections.push(ws));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let client: SocketClient;
afterEach(() => {
  client?.close();
  connections.length = 0;
  useStore.setState({ self: ANONYMOUS_USER, areas: {}, alerts: [], carriedAlerts: [], online: true });
});

it('adds a pushed notice to the alert stack, keeping only its type, title and text', async () => {
  client = new SocketClient(() => `ws://127.0.0.1:${port}/ws`);
  client.connect();
  await vi.waitFor(() => expect(connections).toHaveLength(1));
  const notice = { type: 'warning', title: 'Usage alert: 80% of the monthly limit', text: 'Acme has spent…' };
  const fired = { id: 4, organizationId: 3 };
  connections[0]!.send(
    JSON.stringify(['push', { notice: { ...notice, html: '<img src=x>' }, usageAlertFired: fired }]),
  );
  await vi.waitFor(() => expect(useStore.getState().alerts).toEqual([notice]));
  expect(useStore.getState().areas).toEqual({ usageAlertFired: fired });

  // Something that is not an alert is dropped, not merged.
  connections[0]!.send(JSON.stringify(['push', { notice: { type: 'shout', title: 'x' }, version: 'v1' }]));
  connections[0]!.send(JSON.stringify(['push', { organizations: { 1: { id: 1, name: 'Acme' } } }]));
  await vi.waitFor(() => expect(useStore.getState().areas.organizations).toBeDefined());
  expect(useStore.getState().alerts).toEqual([notice]);
  expect(useStore.getState().areas).not.toHaveProperty('notice');
});
