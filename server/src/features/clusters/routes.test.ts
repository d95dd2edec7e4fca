/**
 * Clusters by outcome and rank, on whichever engine the run uses: 401 signed out, 403 below root (super
 * included), 200 with every node; a node of CLUSTERS that nothing listens on comes back unreachable without
 * failing the page. Over the socket only root may follow the channel, and one poller per process serves every
 * tab: it starts with the first subscriber and stops when the last one leaves.
 */
import { CLUSTERS_CHANNEL, type ClusterNode } from '@tessera/common/clusters';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, isReply, openSocket } from '../../test/socket-client';
import { EMBEDDED_NOTES } from './stats';

const databaseUrl = inject('databaseUrl');
/** A loopback port nothing listens on. */
const DOWN = 'postgres://tessera@127.0.0.1:1/none';
let t: TestApp;
let base: string;
const api = consoleClient(() => t.app);
let rootCookie: string;

beforeAll(async () => {
  // On PostgreSQL the run's own database is named again as a second node, as a replica's URL would be.
  const clusters = databaseUrl ? `down=${DOWN},again=${databaseUrl}` : `down=${DOWN}`;
  t = await buildTestApp({ env: { CLUSTERS: clusters } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  rootCookie = await signIn(t.app, (await makeUser(t.database, 'root')).email);
});
afterAll(() => t.app.close());

describe('GET /v2/clusters', () => {
  it('401 signed out, 403 for super and admin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/clusters' });
    expect(res.statusCode).toBe(401);
    for (const role of ['super', 'admin'] as const) {
      const cookie = await signIn(t.app, (await makeUser(t.database, role)).email);
      expect((await api.get('/v2/clusters', cookie)).statusCode).toBe(403);
    }
  });

  it('200: the main database with its health, and an unreachable node marked so', async () => {
    const res = await api.get('/v2/clusters', rootCookie);
    expect(res.statusCode).toBe(200);
    const clusters = res.json().clusters as Record<string, ClusterNode>;
    expect(Object.keys(clusters).slice(0, 2)).toEqual(['main', 'down']);
    const main = clusters.main!;
    expect(main).toMatchObject({ id: 'main', reachable: true, error: null, role: 'primary' });
    expect(main.engine).toBe(databaseUrl ? 'postgres' : 'pglite');
    expect(main.version).toMatch(/^\d+/);
    expect(main.databaseBytes).toBeGreaterThan(0);
    expect(main.largestTables.length).toBeGreaterThan(0);
    // Which tables are largest depends on what the rest of the suite stored: real names, biggest first.
    for (const table of main.largestTables) {
      expect(table.name).toMatch(/^\w+\.\w+$/);
      expect(table.bytes).toBeGreaterThanOrEqual(0);
    }
    const sizes = main.largestTables.map((x) => x.bytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(main.connections.active).toBeGreaterThanOrEqual(1);
    expect(main.replicationLagSeconds).toBeNull();
    if (main.cacheHitRatio !== null) expect(main.cacheHitRatio).toBeLessThanOrEqual(1);
    expect(main.notes).toEqual(databaseUrl ? [] : EMBEDDED_NOTES);

    expect(clusters.down).toMatchObject({ reachable: false, error: 'Connection refused.', version: null });
    if (databaseUrl) expect(clusters.again).toMatchObject({ reachable: true, engine: 'postgres', role: 'primary' });
  });
});

describe('the clusters channel', () => {
  it('refuses super; root gets pushes from one poller that stops when the last subscriber leaves', async () => {
    const superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const staff = await openSocket(base, { cookie: superCookie });
    staff.send(['subscribe', CLUSTERS_CHANNEL]);
    await staff.next(isReply('refused', CLUSTERS_CHANNEL));
    expect(t.app.clusterPoller.running).toBe(false);

    const first = await openSocket(base, { cookie: rootCookie });
    const second = await openSocket(base, { cookie: rootCookie });
    first.send(['subscribe', CLUSTERS_CHANNEL]);
    await first.next(isReply('subscribed', CLUSTERS_CHANNEL));
    expect(t.app.clusterPoller.running).toBe(true);
    second.send(['subscribe', CLUSTERS_CHANNEL]);
    await second.next(isReply('subscribed', CLUSTERS_CHANNEL));

    // Both tabs get the same rounds; the unreachable node is red in them, the rest of the page unharmed.
    for (const socket of [first, second]) {
      const push = await socket.next(isPush('clusters'), 10_000);
      const clusters = (push[1] as { clusters: Record<string, ClusterNode> }).clusters;
      expect(clusters.down?.reachable).toBe(false);
      expect(clusters.main?.reachable).toBe(true);
    }
    expect(staff.messages.some(isPush('clusters'))).toBe(false);

    first.send(['unsubscribe', CLUSTERS_CHANNEL]);
    await first.next(isReply('unsubscribed', CLUSTERS_CHANNEL));
    expect(t.app.clusterPoller.running).toBe(true);
    second.ws.close();
    await second.closed;
    await expect.poll(() => t.app.clusterPoller.running).toBe(false);
    first.ws.close();
    staff.ws.close();
  });
});
