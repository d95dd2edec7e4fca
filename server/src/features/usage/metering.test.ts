/** Group commit: calls that finish while the writes run share the next one; a request id is counted once, ever. */
import { randomUUID } from 'node:crypto';
import { emptyMetrics } from '@tessera/common/usage';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { testDatabase } from '../../test/harness';
import { rollUpAll } from '../../test/usage-rollups';
import {
  createGroupMetering,
  MAX_GROUP,
  MAX_WRITERS,
  RETRY_WINDOW_MINUTES,
  type UsageEvent,
  writeUsage,
  writeUsageChecked,
} from './metering';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

function event(userId: number, over: Partial<UsageEvent> = {}): UsageEvent {
  return {
    requestId: randomUUID(),
    userId,
    organizationId: null,
    keyId: 'k',
    method: 'GET',
    path: '/byEmail',
    status: 200,
    metrics: { ...emptyMetrics(), inputs: 1, identities: 2 },
    costMicros: 1500,
    ...over,
  };
}
const userId = () => 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
const count = async (user: number) =>
  (await database.query<{ n: number }>('select count(*)::int as n from usage where user_id = $1', [user]))[0]!.n;

describe('usage metering', () => {
  it('writes the calls of one turn together, and whatever queued during a write in the next single statement', async () => {
    const groups: number[] = [];
    let begun: () => void = () => {};
    const writing = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const metering = createGroupMetering(async (events) => {
      groups.push(events.length);
      begun();
      await writeUsage(database, events);
    });
    const user = userId();
    // Ten calls finishing in one turn of the event loop (as a lookup batch settles them) share the first write...
    const first = Array.from({ length: 10 }, () => metering.record(event(user)));
    await writing;
    // ...and the forty that finish while it runs share the next.
    const later = Array.from({ length: 40 }, () => metering.record(event(user)));
    await Promise.all([...first, ...later]);
    expect(groups).toEqual([10, 40]);
    expect(metering.writes).toBe(2);
    expect(await count(user)).toBe(50);
  });

  it('adds concurrent writes holding the same callers in opposite orders to the rollups exactly', async () => {
    const users = [userId(), userId(), userId()];
    // Two writes at once, each locking the same three rollup rows per bucket: without one locking order they could
    // deadlock, and a write would fail.
    for (let round = 0; round < 20; round++) {
      await Promise.all([
        writeUsage(
          database,
          users.map((u) => event(u)),
        ),
        writeUsage(
          database,
          [...users].reverse().map((u) => event(u)),
        ),
      ]);
    }
    await rollUpAll(database);
    const rollups = await database.query<{ user_id: number; requests: string }>(
      "select user_id, requests from usage_rollups where bucket = 'day' and user_id = any($1::int[]) order by user_id",
      [users],
    );
    expect(rollups.map((r) => [r.user_id, Number(r.requests)])).toEqual(
      [...users].sort((x, y) => x - y).map((u) => [u, 40]),
    );
  });

  it(`takes at most ${MAX_GROUP} calls in one statement`, async () => {
    const groups: number[] = [];
    const metering = createGroupMetering(async (events) => {
      groups.push(events.length);
      await writeUsage(database, events);
    });
    const user = userId();
    const calls = MAX_GROUP + 1;
    await Promise.all(Array.from({ length: calls }, () => metering.record(event(user))));
    expect(groups).toEqual([MAX_GROUP, 1]);
    expect(await count(user)).toBe(calls);
  });

  it('counts a request id once in usage and rollups, however often it is written', async () => {
    const user = userId();
    const once = event(user);
    expect(await writeUsage(database, [once, event(user)])).toBe(2);
    expect(await writeUsage(database, [once])).toBe(0);
    expect(await count(user)).toBe(2);
    await rollUpAll(database);
    const rollups = await database.query<{ bucket: string; requests: string; identities: string; cost: string }>(
      'select bucket, requests, identities, cost from usage_rollups where user_id = $1 order by bucket',
      [user],
    );
    expect(rollups.map((r) => [r.bucket, Number(r.requests), Number(r.identities), Number(r.cost)])).toEqual([
      ['day', 2, 4, 0.003],
      ['day-user', 2, 4, 0.003],
      ['hour', 2, 4, 0.003],
      ['hour-user', 2, 4, 0.003],
    ]);
  });

  it('fails every call of a failed write, and writes the next group afresh', async () => {
    const broken = await openDatabase({ dataDir: null }); // no usage table: the write fails as a lost database would
    let writes = 0;
    const metering = createGroupMetering((events) => writeUsage(writes++ === 0 ? broken : database, events));
    const user = userId();
    const first = metering.record(event(user));
    const failed = expect(first).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve)); // its write has begun, alone
    const others = Array.from({ length: MAX_WRITERS + 1 }, () => metering.record(event(user)));
    await failed;
    await Promise.all(others); // the others, alone or queued behind the writes, go in writes of their own
    expect(writes).toBe(MAX_WRITERS + 1);
    expect(await count(user)).toBe(MAX_WRITERS + 1);
    await broken.close();
  });

  it('refuses a second request under one id in the same group, and keeps the first (decision 0046)', async () => {
    const user = userId();
    const first = event(user, { requestHash: 'a' });
    const other = event(user, { requestId: first.requestId, requestHash: 'b' });
    const again = event(user, { requestId: first.requestId, requestHash: 'a' });
    const refused = await writeUsageChecked(database, [first, other, again]);
    expect([...refused]).toEqual([[other, 'reused']]);
    expect(await count(user)).toBe(1);
  });

  it('keeps the first of two requests under one id in a group, and audits only what it served', async () => {
    const user = userId();
    // Many ids, each sent twice in one group by different requests: the stored row and the audit rows must be the
    // first request's for every one of them, whatever order the statement sorts them in.
    const firsts = Array.from({ length: 40 }, (_, i) =>
      event(user, { requestHash: `first-${i}`, lookups: [{ input: 0, values: [`v-first-${i}`], identities: [i] }] }),
    );
    const seconds = firsts.map((f, i) =>
      event(user, {
        requestId: f.requestId,
        requestHash: `second-${i}`,
        lookups: [{ input: 0, values: [`v-second-${i}`], identities: [1000 + i] }],
      }),
    );
    const group = firsts.flatMap((f, i) => [f, seconds[i]!]);
    const refused = await writeUsageChecked(database, group);
    expect(new Set(refused.keys())).toEqual(new Set(seconds));
    const stored = await database.query<{ request_hash: string }>(
      'select request_hash from usage where user_id = $1 order by request_hash',
      [user],
    );
    expect(stored.map((r) => r.request_hash)).toEqual(firsts.map((f) => f.requestHash!).sort());
    const audited = await database.query<{ value_hmacs: string[] }>(
      'select value_hmacs from lookup_audit where user_id = $1',
      [user],
    );
    expect(audited.map((r) => r.value_hmacs[0]).sort()).toEqual(firsts.map((_, i) => `v-first-${i}`).sort());
  });

  it('counts an id as a retry only within the retry window: older, the same request is refused', async () => {
    const user = userId();
    const old = event(user, { requestHash: 'h' });
    await writeUsageChecked(database, [old], new Date(Date.now() - (RETRY_WINDOW_MINUTES + 5) * 60_000));
    const repeat = { ...old };
    expect([...(await writeUsageChecked(database, [repeat]))]).toEqual([[repeat, 'expired']]);
    const fresh = event(user, { requestHash: 'h' });
    await writeUsageChecked(database, [fresh]);
    expect([...(await writeUsageChecked(database, [{ ...fresh }]))]).toEqual([]);
    expect(await count(user)).toBe(2);
  });
});
