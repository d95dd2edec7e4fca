/**
 * A lookup call's audit rows (decision 0039): per input, the keyed hashes of its values and the identities
 * returned. They travel on the call's usage event and are written by the same statement as its usage row.
 */
import type { Database } from '../../db/client';
import type { LookupInput } from '../identities/inputs';
import { keyHmacs, type ValueHasher } from './hmac';

export interface AuditedInput {
  /** The input's position in the call (its row for a CSV). */
  input: number;
  values: string[];
  identities: number[];
}

/** The PII query as one value: its fields trimmed, lowercased and joined, so the same query hashes alike. */
function piiValue(pii: NonNullable<LookupInput['pii']>): string {
  return [pii.firstName, pii.lastName, pii.address, pii.city, pii.state, pii.zip]
    .map((v) => v.trim().toLowerCase().replace(/\s+/g, ' '))
    .join('|');
}

export function auditedInputs(
  hash: ValueHasher,
  inputs: LookupInput[],
  found: { record: { id: number } }[][],
  firstIndex = 0,
): AuditedInput[] {
  return inputs.map((input, i) => {
    const values = input.keys.flatMap((k) => keyHmacs(hash, k.kind, k.value));
    if (input.pii) values.push(hash('pii', piiValue(input.pii)));
    return { input: firstIndex + i, values, identities: (found[i] ?? []).map((m) => m.record.id) };
  });
}

/**
 * Writes audit rows apart from a usage row: only for a CSV stream's inputs past what one call holds in memory
 * (AUDIT_HELD), so a stream of any length keeps a bounded memory.
 */
export async function writeAuditApart(
  database: Database,
  call: {
    requestId: string;
    userId: number;
    organizationId: number | null;
    keyId: string | null;
    method: string;
    path: string;
    /** The permissible purpose the lookup was made for (issue 34). */
    purpose?: string | null;
  },
  rows: AuditedInput[],
): Promise<void> {
  if (rows.length === 0) return;
  await database.query(
    `insert into lookup_audit (at, request_id, user_id, organization_id, key_id, method, path, input, value_hmacs, identity_ids,
       purpose)
     select now(), $1, $2, $3, $4, $5, $6, a.input, a.values, a.identities, $8
     from json_to_recordset($7::json) as a(input int, values text[], identities bigint[])`,
    [
      call.requestId,
      call.userId,
      call.organizationId,
      call.keyId,
      call.method,
      call.path,
      JSON.stringify(rows),
      call.purpose ?? null,
    ],
  );
}

/** Inputs of one streamed call held for its usage row; more are written apart in chunks of this size. */
export const AUDIT_HELD = 10_000;
