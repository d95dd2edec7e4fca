/** SQL of webhook endpoints (decision 0066). Sealed secrets stay in rows; toEndpoint never carries them. */
import type { WebhookDisabledReason, WebhookEndpoint, WebhookSubscribableEvent } from '@tessera/common/webhooks';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewEndpoint = Omit<typeof webhookEndpoints.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  const overlapping = row.previousValidUntil !== null && row.previousValidUntil.getTime() > Date.now();
  return {
    id: row.id,
    organizationId: row.organizationId,
    url: row.url,
    description: row.description,
    events: row.events as WebhookSubscribableEvent[],
    enabled: row.enabled,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: (row.disabledReason as WebhookDisabledReason | null) ?? null,
    consecutiveFailures: row.consecutiveFailures,
    previousSecretValidUntil: overlapping ? row.previousValidUntil!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findEndpoint(db: Executor, id: number, forUpdate = false): Promise<EndpointRow | null> {
  const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Endpoints in id order: one organization's, or (null) every one. */
export async function listEndpoints(db: Executor, organizationId: number | null): Promise<EndpointRow[]> {
  const where = organizationId === null ? undefined : eq(webhookEndpoints.organizationId, organizationId);
  return db.select().from(webhookEndpoints).where(where).orderBy(asc(webhookEndpoints.id));
}

export async function countEndpoints(db: Executor, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId));
  return row?.n ?? 0;
}

export async function insertEndpoint(db: Executor, values: NewEndpoint): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export type EndpointChange = Partial<
  Pick<
    EndpointRow,
    | 'url'
    | 'description'
    | 'events'
    | 'enabled'
    | 'disabledAt'
    | 'disabledReason'
    | 'consecutiveFailures'
    | 'secretSealed'
    | 'previousSecretSealed'
    | 'previousValidUntil'
  >
>;

export async function updateEndpoint(db: Executor, id: number, change: EndpointChange): Promise<EndpointRow> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return row!;
}

/** Deletes an endpoint with its deliveries and their attempts (its messages stay for any other endpoint). */
export async function deleteEndpoint(db: Executor, id: number): Promise<void> {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}
