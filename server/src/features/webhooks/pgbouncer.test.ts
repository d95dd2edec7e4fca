/**
 * The delivery worker behind a real PgBouncer 1.18 in transaction mode (decisions 0042, 0066): two app instances,
 * each with its own pool through PgBouncer (fewer server connections than clients, so statements of one claim may
 * share a server connection with another's), deliver every attempt once. Nothing session-scoped is used: a claim's
 * lock and lease live in its transaction and its rows.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { type ScratchDatabase, scratchDatabase } from '../../test/databases';
import { buildTestApp, type TestApp } from '../../test/harness';
import { PGBOUNCER, startPgBouncer, type TestPgBouncer } from '../../test/pgbouncer';
import { enqueueWebhookEvent } from './enqueue';
import {
  DELIVERING,
  deliveriesOf,
  eventually,
  makeEndpoint,
  organizationWithAdmin,
  type Receiver,
  startReceiver,
} from './test-support';

const base = inject('databaseUrl') ? process.env.TEST_DATABASE_URL : undefined;
const skip = !base
  ? 'needs TEST_DATABASE_URL, in the server-postgres project'
  : !existsSync(PGBOUNCER)
    ? `${PGBOUNCER} is missing (apt-get install pgbouncer)`
    : null;

describe.skipIf(skip)(
  `webhook workers behind PgBouncer in transaction mode${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let scratch: ScratchDatabase;
    let bouncer: TestPgBouncer;
    let databases: Database[] = [];
    let apps: TestApp[] = [];
    let receiver: Receiver;

    beforeAll(async () => {
      scratch = await scratchDatabase(base!, 'webhook_pgb');
      const direct = await openDatabase({ url: scratch.url, poolSize: 2 });
      await migrate(direct);
      await direct.close();
      bouncer = await startPgBouncer(scratch.url, { poolSize: 3 });
      const via = bouncer.via(scratch.url);
      databases = await Promise.all([0, 1].map(() => openDatabase({ url: via, poolSize: 4, poolMode: 'transaction' })));
      receiver = await startReceiver();
      apps = await Promise.all(databases.map((database) => buildTestApp({ database, env: DELIVERING })));
    }, 60_000);

    afterAll(async () => {
      for (const t of apps) await t.app.close();
      for (const database of databases) await database.close();
      await receiver?.close();
      await bouncer?.stop();
      await scratch?.drop();
    });

    it('delivers each attempt of each event once between two instances', async () => {
      const [a, b] = apps as [TestApp, TestApp];
      const { org, cookie } = await organizationWithAdmin(a);
      const { id } = await makeEndpoint(a, cookie, { url: `${receiver.base}/bounced`, events: ['job.completed'] });
      const seen = new Map<string, number>();
      receiver.answer = (request) => {
        const messageId = String(request.headers['webhook-id']);
        seen.set(messageId, (seen.get(messageId) ?? 0) + 1);
        return seen.get(messageId) === 1 ? { status: 502 } : { status: 200 };
      };
      const events = 24;
      for (let i = 0; i < events; i++) {
        const t = i % 2 ? a : b;
        await t.database.transaction((tx) =>
          enqueueWebhookEvent(tx, { organizationId: org.id, type: 'job.completed', data: { jobId: i } }),
        );
        t.app.webhooks.kick();
      }
      await eventually(async () => {
        const log = await deliveriesOf(a, cookie, id);
        expect(log.filter((d) => d.status === 'succeeded')).toHaveLength(events);
      });
      expect(seen.size).toBe(events);
      expect([...seen.values()].every((n) => n === 2)).toBe(true);
      for (const delivery of await deliveriesOf(b, cookie, id)) {
        expect(delivery.attempts.map((x) => x.statusCode)).toEqual([502, 200]);
      }
    });
  },
);
