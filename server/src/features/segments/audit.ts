/**
 * The lookup audit trail of segments (issue 28, finding 7): every path that hands out a person writes it, exports and
 * previews included. A segment export writes one row per batch of members before that batch is sent, its value the
 * keyed hash of the segment (`segment:{id}`); a preview one row, its value the hash of its filters as sent.
 */
import type { SegmentFilters } from '@tessera/common/segments';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { writeAuditApart } from '../lookup-audit/entries';
import type { ValueHasher } from '../lookup-audit/hmac';

export interface SegmentAuditCall {
  database: Database;
  auditHasher: () => Promise<ValueHasher>;
  request: FastifyRequest;
  userId: number;
  organizationId: number | null;
  path: string;
}

/** Writes the audit row of one batch (`input`: its position) handing out `identities`. */
export async function auditMembers(
  call: SegmentAuditCall,
  input: number,
  value: { kind: 'segment' | 'segment-filters'; text: string },
  identities: readonly number[],
): Promise<void> {
  if (identities.length === 0) return;
  const hash = await call.auditHasher();
  await writeAuditApart(
    call.database,
    {
      requestId: String(call.request.id),
      userId: call.userId,
      organizationId: call.organizationId,
      keyId: null,
      method: call.request.method,
      path: call.path,
    },
    [{ input, values: [hash(value.kind, value.text)], identities: [...identities] }],
  );
}

/** Keys sorted at every depth, so equal values serialise alike. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}

/** Filters as one value: the same filters hash alike whatever the order of their keys. */
export function filtersValue(filters: SegmentFilters): string {
  return JSON.stringify(sorted(filters));
}
