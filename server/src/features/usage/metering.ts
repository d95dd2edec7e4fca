/**
 * Where every lookup's usage goes: one row per call, durable before the reply, appended to a log that no two calls
 * share a row of (decision 0045). Rows are written by group commit: while a write runs (MAX_WRITERS at once), the
 * calls that finish queue up, and the next write takes them all in one statement, so metering costs a call a round
 * trip or two of latency, not one per call in front of it. A request's identity is counted once, ever
 * (unique by user, request id and month): a retry that reaches another process is answered, never billed again. The
 * same statement writes the lookup audit rows each event carries (issue 22, decision 0039), for the rows it really
 * inserted. Rollups are made from the log afterwards, off the request path (aggregator.ts); every reader adds the
 * rows not yet aggregated (the `usage_totals` view). A write that fails fails every call in it (each answers 503 and
 * is not charged).
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { REQUEST_ID_MESSAGES } from '@tessera/common/lookups';
import { CALL_METRICS, type CallMetrics, metricColumn } from '@tessera/common/usage';
import type { Database } from '../../db/client';
import { databaseFault } from '../../db/faults';
import { Conflict } from '../../http/errors';
import { usageWrites, usageWritten } from '../../observability/metrics';

export interface UsageEvent {
  requestId: string;
  userId: number;
  organizationId: number | null;
  keyId: string | null;
  method: string;
  /** The endpoint, e.g. '/byEmail'. */
  path: string;
  status: number;
  metrics: CallMetrics;
  /** Millionths of a dollar, priced by the contract. */
  costMicros: number;
  /** The lookup audit trail's rows for the call's inputs (issue 22), written by the same statement. */
  lookups?: { input: number; values: string[]; identities: number[] }[];
  /** The permissible purpose the call was made for (issue 34), kept on its audit rows. */
  purpose?: string | null;
  /**
   * What was asked and by whom (SHA-256, hex): a request id metered already with the same fingerprint is a retry,
   * answered and not billed again; with another fingerprint `record` fails with RequestIdReused (decision 0046).
   */
  requestHash?: string;
}

/** Why a request id may not be answered: metered for another request, or for this one too long ago to be a retry. */
export type RequestIdRefusal = 'reused' | 'expired';

/** The request id was metered already (for another request, or too long ago): answering this one would be free. */
export class RequestIdReused extends Conflict {
  constructor(
    readonly requestId: string,
    readonly why: RequestIdRefusal = 'reused',
  ) {
    super(
      why === 'expired'
        ? REQUEST_ID_MESSAGES.expired(requestId, RETRY_WINDOW_MINUTES)
        : REQUEST_ID_MESSAGES.reused(requestId),
    );
  }
}

export interface Metering {
  /** Resolves once the usage is durable; rejects when it could not be recorded. */
  record(event: UsageEvent): Promise<void>;
}

const METRIC_COLUMNS = CALL_METRICS.map(metricColumn);
const IDENTITY = ['organization_id', 'user_id', 'key_id', 'method', 'path'];

/** Most calls one statement carries; more wait for the next. */
export const MAX_GROUP = 2000;
/**
 * Writes running at once in a process (decision 0052). They share no row (the log is append-only), but each statement
 * costs PostgreSQL far more than each row it carries: one writer per process makes the largest groups, and with a
 * process per core (decision 0043) a machine writes with as many writers as it has cores. Measured with four per
 * process, two processes served fewer metered calls than one.
 */
export const MAX_WRITERS = 1;

// A call's time is the database's (one clock for every node, so a month's turn is the same for all of them), unless a
// caller gives one (tests and benches writing history).
// Named first: pg_stat_activity keeps only the statement's first 1,024 bytes (track_activity_query_size), so an
// operator (and the balancer fault test) can tell it apart by this.
export const WRITE_NAME = 'tessera: usage write';
const WRITE = `/* ${WRITE_NAME} */ with sent as (
  select * from json_to_recordset($1::json) as r(at timestamptz, request_id text, user_id int, organization_id int,
    key_id text, method text, path text, status int, ${METRIC_COLUMNS.map((c) => `${c} int`).join(', ')}, cost numeric,
    lookups json, request_hash text, purpose text, ord int)
), rows as (
  -- Of two requests under one id in a group, the first is the one written and audited (the later is refused).
  select distinct on (user_id, request_id) coalesce(at, now()) as at, request_id, ${IDENTITY.join(', ')}, status,
    ${METRIC_COLUMNS.join(', ')}, cost, lookups, request_hash, purpose from sent
  order by user_id, request_id, ord
), written as (
  insert into usage (at, month, request_id, ${IDENTITY.join(', ')}, status, ${METRIC_COLUMNS.join(', ')}, cost,
    request_hash)
  select at, (date_trunc('month', at at time zone 'UTC'))::date, request_id, ${IDENTITY.join(', ')}, status,
    ${METRIC_COLUMNS.join(', ')}, cost, request_hash from rows r
  -- A request id is unique within its month (the partition key): in a month's first hour, a retry of a call metered
  -- in the last month is looked for there.
  where (r.at at time zone 'UTC') >= date_trunc('month', r.at at time zone 'UTC') + interval '1 hour'
    or not exists (select 1 from usage p where p.user_id = r.user_id and p.request_id = r.request_id
      and p.month = (date_trunc('month', r.at at time zone 'UTC') - interval '1 month')::date)
  order by request_id
  on conflict (user_id, request_id, month) do nothing
  returning *
), audited as (
  insert into lookup_audit (at, request_id, user_id, organization_id, key_id, method, path, input, value_hmacs,
    identity_ids, purpose)
  select w.at, w.request_id, w.user_id, w.organization_id, w.key_id, w.method, w.path, a.input, a.values, a.identities,
    r.purpose
  from written w join rows r on r.request_id = w.request_id and r.user_id = w.user_id
  cross join lateral json_to_recordset(coalesce(r.lookups, '[]'::json)) as a(input int, values text[], identities bigint[])
  order by w.request_id, a.input
)
select user_id, request_id from written`;

function row(e: UsageEvent, at: Date | undefined, ord: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ord,
    at: at?.toISOString() ?? null,
    request_id: e.requestId,
    user_id: e.userId,
    organization_id: e.organizationId,
    key_id: e.keyId,
    method: e.method,
    path: e.path,
    status: e.status,
    cost: (Math.round(e.costMicros) / 1e6).toFixed(6),
    lookups: e.lookups ?? null,
    request_hash: e.requestHash ?? null,
    purpose: e.purpose ?? null,
  };
  CALL_METRICS.forEach((m, i) => {
    out[METRIC_COLUMNS[i]!] = Math.round(e.metrics[m]);
  });
  return out;
}

/** A request's identity in the log: its id is its caller's (decision 0046). */
const identityOf = (userId: number, requestId: string) => `${userId}:${requestId}`;

/** Writes a group of usage rows (and their audit rows) in one statement: the identities it inserted. */
async function insertUsage(database: Pick<Database, 'query'>, events: UsageEvent[], at?: Date): Promise<Set<string>> {
  const rows = await database.query<{ user_id: number; request_id: string }>(
    WRITE,
    [JSON.stringify(events.map((e, i) => row(e, at, i)))],
    {
      prepare: true,
      budget: 'usage',
    },
  );
  return new Set(rows.map((r) => identityOf(r.user_id, r.request_id)));
}

/**
 * Writes a group of usage rows in one statement: how many it inserted (a request id already there is skipped).
 * `at`: the calls' time when given (history); the database's clock otherwise.
 */
export async function writeUsage(database: Pick<Database, 'query'>, events: UsageEvent[], at?: Date): Promise<number> {
  return (await insertUsage(database, events, at)).size;
}

/** How long after its first metering a request id sent again with the same request counts as a retry of it. */
export const RETRY_WINDOW_MINUTES = 10;

/**
 * Writes a group and tells which of its events may not be answered: those repeating a request id metered for another
 * request (another fingerprint), or for the same one more than RETRY_WINDOW_MINUTES ago (an id reused, not a retry).
 * A repeat of the same request within the window is a retry: answered, billed once. Two events of one group with one
 * id are compared too (the insert keeps only the first), so concurrent requests under one id are never free.
 */
export async function writeUsageChecked(
  database: Database,
  events: UsageEvent[],
  at?: Date,
): Promise<Map<UsageEvent, RequestIdRefusal>> {
  const inserted = await insertUsage(database, events, at);
  const seen = new Set<string>();
  const repeats = events.filter((e) => {
    const identity = identityOf(e.userId, e.requestId);
    const again = seen.has(identity) || !inserted.has(identity);
    seen.add(identity);
    return again;
  });
  const refused = new Map<UsageEvent, RequestIdRefusal>();
  if (repeats.length === 0) return refused;
  // The newest row of each id, and whether it is recent enough for a retry (the database's clock, not a node's).
  const stored = await database.query<{
    user_id: number;
    request_id: string;
    request_hash: string | null;
    recent: boolean;
  }>(
    // By (user, request id), the unique index's leading columns, in each month's partition.
    `select distinct on (u.user_id, u.request_id) u.user_id, u.request_id, u.request_hash,
       u.at > now() - make_interval(mins => $3) as recent
     from usage u join unnest($1::int[], $2::text[]) as r(user_id, request_id)
       on u.user_id = r.user_id and u.request_id = r.request_id
     order by u.user_id, u.request_id, u.at desc`,
    [repeats.map((e) => e.userId), repeats.map((e) => e.requestId), RETRY_WINDOW_MINUTES],
  );
  const byId = new Map(stored.map((r) => [identityOf(r.user_id, r.request_id), r]));
  for (const e of repeats) {
    const row = byId.get(identityOf(e.userId, e.requestId));
    if (!row || row.request_hash !== (e.requestHash ?? null)) refused.set(e, 'reused');
    else if (!row.recent) refused.set(e, 'expired');
  }
  return refused;
}

interface Pending {
  event: UsageEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/** Group commit over any writer (the database's by default). */
export function createGroupMetering(
  write: (events: UsageEvent[]) => Promise<unknown>,
  writers = MAX_WRITERS,
): Metering & {
  /** Statements written so far (the bench reports calls per statement). */
  readonly writes: number;
} {
  const queue: Pending[] = [];
  let writing = 0;
  let writes = 0;
  let starting = false;

  async function drain(): Promise<void> {
    writing++;
    try {
      while (queue.length > 0) {
        const group = queue.splice(0, MAX_GROUP);
        const timer = usageWrites.startTimer();
        try {
          writes++;
          const written = await write(group.map((p) => p.event));
          timer({ outcome: 'written' });
          // A writer that returns events (writeUsageChecked) names those it may not answer.
          const refused = written instanceof Map ? (written as ReadonlyMap<UsageEvent, RequestIdRefusal>) : null;
          // A writer that names events it may not answer (a reused request id) fails those alone.
          usageWritten.inc(group.length - (refused?.size ?? 0));
          for (const p of group) {
            const why = refused?.get(p.event);
            if (why) p.reject(new RequestIdReused(p.event.requestId, why));
            else p.resolve();
          }
        } catch (error) {
          timer({ outcome: 'failed' });
          for (const p of group) p.reject(error);
        }
      }
    } finally {
      writing--;
    }
  }

  return {
    record(event) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ event, resolve, reject });
        if (writing < writers && !starting) {
          // Started on the loop's next turn: the calls that finish in this one (a lookup batch settles many at
          // once) go in the same statement, instead of the first alone and the rest in the next.
          starting = true;
          setImmediate(() => {
            starting = false;
            void drain();
          });
        }
      });
    },
    get writes() {
      return writes;
    },
  };
}

export function createDatabaseMetering(database: Database, writers = MAX_WRITERS) {
  return createGroupMetering((events) => writeUsageChecked(database, events), writers);
}

/**
 * How long a call's usage write that failed for the database being away is tried again before the call answers 503
 * (issue 28, finding 16): under the same request id and fingerprint, so a write whose commit reached PostgreSQL but
 * whose acknowledgement was lost is found as a retry of itself, and the call is answered as billed.
 */
export const USAGE_RESOLVE_MS = 5_000;

/**
 * Records `event`, trying again while the failure is the database's (refused, reset, timed out) and `untilMs`
 * (epoch ms) is ahead. A retry is the same request: counted once, whatever the first attempt did.
 */
export async function recordResolving(metering: Metering, event: UsageEvent, untilMs: number): Promise<void> {
  let delay = 100;
  for (;;) {
    try {
      await metering.record(event);
      return;
    } catch (error) {
      if (error instanceof RequestIdReused || !databaseFault(error) || Date.now() + delay > untilMs) throw error;
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
  }
}
