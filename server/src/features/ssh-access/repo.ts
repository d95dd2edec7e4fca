/** SQL of SSH access: keys, host groups, grants and certificates. */
import { SSH_LIMITS, type SshGrant, type SshHostGroup, type SshKey, type SshKeyType } from '@tessera/common/ssh';
import { and, asc, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { sshCertificates, sshGrants, sshHostGroups, sshKeys, users } from '../../db/schema';

export type KeyRow = typeof sshKeys.$inferSelect;
export type GroupRow = typeof sshHostGroups.$inferSelect;
export type GrantRow = typeof sshGrants.$inferSelect;

const keyColumns = { key: sshKeys, name: users.name, email: users.email };

function keyView({ key, name, email }: { key: KeyRow; name: string; email: string }): SshKey {
  return {
    id: key.id,
    userId: key.userId,
    owner: name || email,
    name: key.name,
    type: key.type as SshKeyType,
    bits: key.bits,
    fingerprint: key.fingerprint,
    publicKey: key.publicKey,
    createdAt: key.createdAt.toISOString(),
  };
}

export const groupView = (row: GroupRow): SshHostGroup => ({
  id: row.id,
  name: row.name,
  tokenLastFour: row.tokenLastFour,
  createdAt: row.createdAt.toISOString(),
});

export const grantView = (row: GrantRow): SshGrant => ({
  id: row.id,
  keyId: row.keyId,
  groupId: row.groupId,
  principal: row.principal,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** Live keys, newest first; only `userId`'s when given. */
export async function listKeys(db: Executor, userId: number | null): Promise<SshKey[]> {
  const rows = await db
    .select(keyColumns)
    .from(sshKeys)
    .innerJoin(users, eq(users.id, sshKeys.userId))
    .where(and(isNull(sshKeys.deletedAt), userId === null ? undefined : eq(sshKeys.userId, userId)))
    .orderBy(desc(sshKeys.id))
    .limit(SSH_LIMITS.list);
  return rows.map(keyView);
}

export async function findKey(db: Executor, id: number): Promise<SshKey | null> {
  const [row] = await db
    .select(keyColumns)
    .from(sshKeys)
    .innerJoin(users, eq(users.id, sshKeys.userId))
    .where(and(eq(sshKeys.id, id), isNull(sshKeys.deletedAt)));
  return row ? keyView(row) : null;
}

export async function keyByFingerprint(db: Executor, fingerprint: string): Promise<KeyRow | null> {
  const [row] = await db
    .select()
    .from(sshKeys)
    .where(and(eq(sshKeys.fingerprint, fingerprint), isNull(sshKeys.deletedAt)));
  return row ?? null;
}

export async function insertKey(db: Executor, values: typeof sshKeys.$inferInsert): Promise<number> {
  const [row] = await db.insert(sshKeys).values(values).returning({ id: sshKeys.id });
  return row!.id;
}

/** Deletes the key and revokes its live grants; the ids of the grants revoked. */
export async function deleteKey(db: Executor, id: number, by: number, at: Date): Promise<number[]> {
  await db.update(sshKeys).set({ deletedAt: at }).where(eq(sshKeys.id, id));
  const revoked = await db
    .update(sshGrants)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(sshGrants.keyId, id), isNull(sshGrants.revokedAt)))
    .returning({ id: sshGrants.id });
  return revoked.map((r) => r.id);
}

export async function listGroups(db: Executor): Promise<GroupRow[]> {
  return db.select().from(sshHostGroups).where(isNull(sshHostGroups.deletedAt)).orderBy(asc(sshHostGroups.name));
}

export async function findGroup(db: Executor, id: number): Promise<GroupRow | null> {
  const [row] = await db
    .select()
    .from(sshHostGroups)
    .where(and(eq(sshHostGroups.id, id), isNull(sshHostGroups.deletedAt)));
  return row ?? null;
}

export async function groupByName(db: Executor, name: string): Promise<GroupRow | null> {
  const [row] = await db
    .select()
    .from(sshHostGroups)
    .where(and(eq(sshHostGroups.name, name), isNull(sshHostGroups.deletedAt)));
  return row ?? null;
}

export async function insertGroup(db: Executor, values: typeof sshHostGroups.$inferInsert): Promise<GroupRow> {
  const [row] = await db.insert(sshHostGroups).values(values).returning();
  return row!;
}

/** Deletes the group and revokes its live grants; the ids of the grants revoked. */
export async function deleteGroup(db: Executor, id: number, by: number, at: Date): Promise<number[]> {
  await db.update(sshHostGroups).set({ deletedAt: at }).where(eq(sshHostGroups.id, id));
  const revoked = await db
    .update(sshGrants)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(sshGrants.groupId, id), isNull(sshGrants.revokedAt)))
    .returning({ id: sshGrants.id });
  return revoked.map((r) => r.id);
}

/** Grants of live keys and groups, newest first. */
export async function listGrants(db: Executor): Promise<GrantRow[]> {
  const rows = await db
    .select({ grant: sshGrants })
    .from(sshGrants)
    .innerJoin(sshKeys, and(eq(sshKeys.id, sshGrants.keyId), isNull(sshKeys.deletedAt)))
    .innerJoin(sshHostGroups, and(eq(sshHostGroups.id, sshGrants.groupId), isNull(sshHostGroups.deletedAt)))
    .orderBy(desc(sshGrants.id))
    .limit(SSH_LIMITS.list);
  return rows.map((r) => r.grant);
}

export async function findGrant(db: Executor, id: number, forUpdate = false): Promise<GrantRow | null> {
  const query = db.select().from(sshGrants).where(eq(sshGrants.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertGrant(db: Executor, values: typeof sshGrants.$inferInsert): Promise<GrantRow> {
  const [row] = await db.insert(sshGrants).values(values).returning();
  return row!;
}

export async function revokeGrant(db: Executor, id: number, by: number, at: Date): Promise<GrantRow> {
  const [row] = await db
    .update(sshGrants)
    .set({ revokedAt: at, revokedBy: by })
    .where(eq(sshGrants.id, id))
    .returning();
  return row!;
}

/**
 * The keys a group's hosts let in as `principal` now: live grants of live keys whose owners are still active staff
 * (super or root), with each grant's expiry.
 */
export async function authorizedKeys(db: Executor, groupId: number, principal: string, now: Date) {
  return db
    .select({ publicKey: sshKeys.publicKey, grantId: sshGrants.id, expiresAt: sshGrants.expiresAt })
    .from(sshGrants)
    .innerJoin(sshKeys, and(eq(sshKeys.id, sshGrants.keyId), isNull(sshKeys.deletedAt)))
    .innerJoin(
      users,
      and(
        eq(users.id, sshKeys.userId),
        isNull(users.deletedAt),
        eq(users.isActive, true),
        inArray(users.role, ['super', 'root']),
      ),
    )
    .where(
      and(
        eq(sshGrants.groupId, groupId),
        eq(sshGrants.principal, principal),
        isNull(sshGrants.revokedAt),
        gt(sshGrants.expiresAt, now),
      ),
    )
    .orderBy(asc(sshGrants.id));
}

export async function insertCertificate(db: Executor, values: typeof sshCertificates.$inferInsert): Promise<number> {
  const [row] = await db.insert(sshCertificates).values(values).returning({ id: sshCertificates.id });
  return row!.id;
}
