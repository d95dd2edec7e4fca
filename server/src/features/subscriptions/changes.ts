/**
 * The notifier's SQL (decision 0067), plain statements in short transactions, so it runs the same behind PgBouncer in
 * transaction mode: changes are claimed with `for update skip locked` and a lease (a token and `lease_until`), as
 * the webhook worker claims deliveries, so two processes never take the same change; a process that stops leaves its
 * changes to whoever claims them after the lease. A change is deleted under its token once its events are enqueued.
 */
import { hasRank, type Role } from '@tessera/common/roles';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { rows } from '../../db/rows';

export interface ClaimedChange {
  id: number;
  identityId: number;
  oldRecord: Record<string, unknown> | null;
  cause: 'import' | 'suppression';
}

/** Claims up to `limit` changes, oldest first, for `leaseMs`. */
export async function claimChanges(
  database: Database,
  options: { limit: number; leaseMs: number; token: string },
): Promise<ClaimedChange[]> {
  const claimed = await database.transaction((tx) =>
    rows<{ id: string | number; identity_id: string | number; old_record: unknown; cause: string }>(
      tx,
      sql`with due as (
        select c.id from identity_changes c
        where (c.lease_until is null or c.lease_until < now())
          -- An identity whose changes another process is making into events waits for it: events stay in order.
          and not exists (select 1 from identity_changes o
            where o.identity_id = c.identity_id and o.id <> c.id and o.lease_until >= now())
        order by c.id limit ${options.limit}
        for update skip locked
      )
      update identity_changes c set lease_token = ${options.token},
        lease_until = now() + ${options.leaseMs} * interval '1 millisecond'
      from due where c.id = due.id
      returning c.id, c.identity_id, c.old_record, c.cause`,
    ),
  );
  return claimed
    .map((r) => ({
      id: Number(r.id),
      identityId: Number(r.identity_id),
      oldRecord: (typeof r.old_record === 'string' ? JSON.parse(r.old_record) : r.old_record) as Record<
        string,
        unknown
      > | null,
      cause: r.cause === 'suppression' ? ('suppression' as const) : ('import' as const),
    }))
    .sort((a, b) => a.id - b.id);
}

/** Deletes changes made into events, only while this claim still holds them: the number deleted. */
export async function finishChanges(db: Executor, ids: number[], token: string): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await rows<{ id: number }>(
    db,
    sql`delete from identity_changes where id = any(${`{${ids.join(',')}}`}::bigint[]) and lease_token = ${token}
      returning id`,
  );
  return gone.length;
}

export interface LiveSubscription {
  id: number;
  organizationId: number;
  userId: number;
  role: string;
  keyId: string | null;
  inputKind: string | null;
  inputValue: string | null;
  templateId: number;
  /** The permissible purpose it was made for: its events go out only while the contract allows it. */
  purpose: string | null;
  /** The record types its owner may see: the key's within its user's; empty: all. */
  userTypes: string[];
  keyTypes: string[] | null;
}

/** The identity's live subscriptions whose owner (user, and key if any) may still use them. */
export async function subscriptionsOf(db: Executor, identityId: number): Promise<LiveSubscription[]> {
  const found = await rows<{
    id: number;
    organization_id: number;
    user_id: number;
    role: string;
    key_id: string | null;
    input_kind: string | null;
    input_value: string | null;
    template_id: number;
    purpose: string | null;
    user_types: string[];
    key_types: string[] | null;
  }>(
    db,
    sql`select s.id, s.organization_id, s.user_id, u.role, s.key_id, s.input_kind, s.input_value, s.template_id,
        s.purpose, u.allowed_record_types as user_types, k.allowed_record_types as key_types
      from identity_subscriptions s
      join users u on u.id = s.user_id and u.deleted_at is null and u.is_active
        and u.organization_id = s.organization_id
      left join api_keys k on k.id = s.key_id
      where s.identity_id = ${identityId} and s.deleted_at is null
        and (s.key_id is null or (k.deleted_at is null and k.mode = 'live'
          and (k.expires_at is null or k.expires_at > now())))
      order by s.id`,
  );
  // As a lookup of theirs would be refused: a user deactivated, moved, below 'user', or a key expired sends nothing.
  return found
    .filter((r) => hasRank(r.role as Role, 'user'))
    .map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      userId: r.user_id,
      role: r.role,
      keyId: r.key_id,
      inputKind: r.input_kind,
      inputValue: r.input_value,
      templateId: r.template_id,
      purpose: r.purpose,
      userTypes: r.user_types,
      keyTypes: r.key_types,
    }));
}

/** True when the person is suppressed (as a person, not an e-mail or phone of theirs). */
export async function personSuppressed(db: Executor, identityId: number): Promise<boolean> {
  const found = await rows<{ one: number }>(
    db,
    sql`select 1 as one from suppressions where kind = 'identity' and value = ${String(identityId)}`,
  );
  return found.length > 0;
}

/** Moves a subscription by input to the identity now holding it. */
export async function moveSubscription(db: Executor, id: number, identityId: number): Promise<void> {
  await db.execute(sql`update identity_subscriptions set identity_id = ${identityId} where id = ${id}`);
}
