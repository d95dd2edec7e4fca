/**
 * Test support for webhooks: a real receiver on loopback (node:http) answering as each test scripts it, a database
 * of a test file's own (its workers would otherwise deliver other files' events from the shared one), and the
 * independent signature check the tests hold deliveries to beside verifyWebhook.
 */
import { createHmac } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDelivery } from '@tessera/common/webhooks';
import { expect, vi } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { consoleClient } from '../../test/console-client';
import { type ScratchDatabase, scratchDatabase } from '../../test/databases';
import { makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (a receiver that hangs). */
  hang?: boolean;
}

export interface Receiver {
  /** `http://127.0.0.1:{port}` */
  base: string;
  received: Received[];
  /** What to answer the n-th request (0-based) to a path; 200 by default. */
  answer: (request: Received, n: number) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const counts = new Map<string, number>();
  const receiver: Receiver = {
    base: '',
    received: [],
    answer: () => ({ status: 200, body: 'ok' }),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(got);
      const n = counts.get(got.path) ?? 0;
      counts.set(got.path, n + 1);
      const answer = receiver.answer(got, n);
      if (answer.hang) return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export interface OwnDatabase {
  database: Database;
  /** Its PostgreSQL URL (a second pool on it is a second node), or null on PGlite. */
  url: string | null;
  drop(): Promise<void>;
}

/** A database of the file's own: in-memory PGlite, or a scratch database beside the run's PostgreSQL one. */
export async function ownDatabase(label: string): Promise<OwnDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  const scratch: ScratchDatabase | null =
    process.env.TEST_ENGINE === 'postgres' && base ? await scratchDatabase(base, label) : null;
  const database = await openDatabase({ url: scratch?.url ?? null, dataDir: null, poolSize: 4 });
  await migrate(database);
  return {
    database,
    url: scratch?.url ?? null,
    async drop() {
      await database.close();
      await scratch?.drop();
    },
  };
}

/** Settings for apps whose workers deliver to a loopback receiver, retrying within milliseconds. */
export const DELIVERING = {
  WEBHOOK_WORKER: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0,10ms,10ms,10ms,10ms,10ms',
  WEBHOOK_TIMEOUT_MS: '2000',
};

/** An organization with an administrator (signed in) and a plain member. */
export async function organizationWithAdmin(t: TestApp) {
  const org = await makeOrganization(t.database);
  const admin = await makeUser(t.database, 'admin', org.id);
  const member = await makeUser(t.database, 'user', org.id);
  return { org, admin, member, cookie: await signIn(t.app, admin.email) };
}

/** Makes an endpoint through the API; answers its id and its secret. */
export async function makeEndpoint(t: TestApp, cookie: string, body: Record<string, unknown>) {
  const res = await consoleClient(() => t.app).post('/v2/webhooks', cookie, { events: ['identity.changed'], ...body });
  expect(res.statusCode, res.body).toBe(201);
  const item = Object.values(res.json().webhooks)[0] as { id: number; secret: string };
  return { id: item.id, secret: item.secret };
}

/** The endpoint's delivery log (first page). */
export async function deliveriesOf(t: TestApp, cookie: string, endpointId: number): Promise<WebhookDelivery[]> {
  const res = await consoleClient(() => t.app).get(`/v2/webhooks/${endpointId}/deliveries`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().webhookDeliveries.deliveries;
}

/** Waits (no time is asserted) until `check` passes. */
export const eventually = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

/** The signatures a delivery should carry, computed here with node:crypto apart from the code under test. */
export function expectedSignature(secret: string, headers: IncomingHttpHeaders, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
}
