/**
 * The lookup audit trail (issue 22 item 3), super+: who looked up a value, or found an identity, and when. The value
 * is normalized as a lookup normalizes it and hashed with the same key (lookup-audit/hmac.ts); a value that could be
 * several kinds (digits: a phone number or an identity id) is searched as each.
 */
import { KEY_NORMALIZERS, type LookupKey } from '@tessera/common/lookup-inputs';
import { type LookupAuditEntry, STEWARDSHIP_LIMITS } from '@tessera/common/stewardship';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { keyHmacs, type ValueHasher } from '../lookup-audit/hmac';
import { auditQuery } from './schemas';
import { staffOnly } from './staff';

function hmacsOf(hash: ValueHasher, value: string): string[] {
  const out: string[] = [];
  for (const [kind, normalize] of Object.entries(KEY_NORMALIZERS)) {
    const normalized = normalize(value);
    if (normalized !== null) out.push(...keyHmacs(hash, kind as LookupKey, String(normalized)));
  }
  return out;
}

interface Row {
  id: string;
  at: Date | string;
  request_id: string;
  user_id: number;
  organization_id: number | null;
  key_id: string | null;
  method: string;
  path: string;
  input: number;
  identity_ids: (string | number)[];
  purpose: string | null;
}

export function registerAuditRoutes(
  app: FastifyInstance,
  deps: { database: Database; auditHasher: () => Promise<ValueHasher> },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/v2/audit/lookups', { preHandler: staffOnly, schema: { querystring: auditQuery } }, async (request) => {
    const { value, identityId, before } = request.query;
    const hmacs = value ? hmacsOf(await deps.auditHasher(), value) : [];
    const rows = await deps.database.query<Row>(
      `select id::text, at, request_id, user_id, organization_id, key_id, method, path, input, identity_ids,
         purpose
       from lookup_audit
       where (value_hmacs && $1::text[] or identity_ids @> array[$2::bigint]) and ($3::bigint is null or id < $3)
       order by id desc limit $4`,
      [hmacs, identityId ?? null, before ?? null, STEWARDSHIP_LIMITS.auditPage],
    );
    // With the permissible purpose the lookup was made for (issue 34; null: none named).
    const lookupAudit: Record<string, LookupAuditEntry & { purpose: string | null }> = {};
    for (const row of rows) {
      lookupAudit[row.id] = {
        id: Number(row.id),
        at: new Date(row.at).toISOString(),
        requestId: row.request_id,
        userId: row.user_id,
        organizationId: row.organization_id,
        keyId: row.key_id,
        method: row.method,
        path: row.path,
        input: row.input,
        identityIds: row.identity_ids.map(Number),
        purpose: row.purpose,
      };
    }
    return { lookupAudit };
  });
}
