/** What the audit log holds about one target, for route tests: the actions, oldest first, with who and detail. */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { auditLog } from '../db/schema';

export async function auditedOf(database: Database, targetType: string, targetId: number | string) {
  return database.db
    .select({ action: auditLog.action, actorId: auditLog.actorId, detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, String(targetId))))
    .orderBy(asc(auditLog.id));
}
