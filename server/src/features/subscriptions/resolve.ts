/**
 * Finds the identity a subscription names (decision 0067): by id, or by an input normalized the one way the graph
 * stores it and resolved as a lookup resolves it (search.ts: suppressed people, e-mails and phones are never found;
 * of several holders, the one most recently seen with it). A suppressed person is as unknown as a missing one.
 */
import { KEY_NORMALIZERS } from '@tessera/common/lookup-inputs';
import type { SubscriptionInput } from '@tessera/common/subscriptions';
import type { Database } from '../../db/client';
import { suppressedSql } from '../identities/record-sql';
import { runKeys } from '../identities/search';

/** The input normalized, or null when it is not one of its kind. */
export const normalizedInput = (kind: SubscriptionInput, raw: string): string | null =>
  KEY_NORMALIZERS[kind](raw) as string | null;

/** True when the identity exists and is not suppressed. */
export async function identityExists(database: Database, id: number): Promise<boolean> {
  const found = await database.query<{ id: string }>(
    `select p.id::text as id from people p where p.id = $1 and not ${suppressedSql("('identity', p.id::text)")}`,
    [String(id)],
  );
  return found.length > 0;
}

/** The identity holding the (normalized) input now, or null when no one (not suppressed) does. */
export async function resolveInput(database: Database, kind: SubscriptionInput, value: string): Promise<number | null> {
  const { hits } = await runKeys(database, new Map([[kind, new Set([value])]]), 1);
  const best = hits
    .filter((h) => h.kind === kind)
    .sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? '') || a.id - b.id)[0];
  return best ? Number(best.id) : null;
}
