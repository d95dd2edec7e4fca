/** Served calls as the usage log receives them, for tests that need usage written without serving lookups. */
import { randomUUID } from 'node:crypto';
import { emptyMetrics } from '@tessera/common/usage';
import type { UsageEvent } from '../features/usage/metering';

/** `n` GET byEmail calls of one input each, without a key, each under a request id of its own. */
export function servedCalls(
  n: number,
  who: { userId: number; organizationId: number | null; costMicros: number },
): UsageEvent[] {
  return Array.from({ length: n }, () => ({
    requestId: randomUUID(),
    userId: who.userId,
    organizationId: who.organizationId,
    keyId: null,
    method: 'GET',
    path: '/byEmail',
    status: 200,
    metrics: { ...emptyMetrics(), inputs: 1 },
    costMicros: who.costMicros,
  }));
}
