/**
 * Where every lookup's usage goes. This writes one row per call before the reply is sent; the API access issue
 * makes it a group commit with cost. A call whose usage cannot be written is not answered as a success.
 */
import { CALL_METRICS, type CallMetrics } from '@tessera/common/usage';
import type { Database } from '../../db/client';

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
}

export interface Metering {
  /** Resolves once the usage is durable; rejects when it could not be recorded. */
  record(event: UsageEvent): Promise<void>;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const COLUMNS = [
  'request_id',
  'user_id',
  'organization_id',
  'key_id',
  'method',
  'path',
  'status',
  ...CALL_METRICS.map(snake),
];
const INSERT = `insert into usage (${COLUMNS.join(', ')}) values (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  on conflict (request_id) do nothing`;

export function createDatabaseMetering(database: Database): Metering {
  return {
    async record(e) {
      await database.query(
        INSERT,
        [
          e.requestId,
          e.userId,
          e.organizationId,
          e.keyId,
          e.method,
          e.path,
          e.status,
          ...CALL_METRICS.map((m) => Math.round(e.metrics[m])),
        ],
        { prepare: true },
      );
    },
  };
}
