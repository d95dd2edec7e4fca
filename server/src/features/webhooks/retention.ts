/**
 * The delivery log's retention (decision 0066 addendum): messages older than WEBHOOK_LOG_RETENTION_DAYS whose every
 * delivery has ended (succeeded or failed) are deleted, their deliveries and attempts with them (foreign keys cascade),
 * a thousand at a time so no statement holds many locks or runs long. A message with a delivery still pending stays
 * however old it is: it may yet be sent. Rows another process is deleting are skipped (SKIP LOCKED), so every process
 * may run it at once.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

export const RETENTION_BATCH = 1000;
/** How often each process prunes. */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Deletes the messages the retention no longer keeps, as of `now`; answers how many. */
export async function pruneWebhookLog(
  database: Database,
  days: number,
  now: Date = new Date(),
  stopping: () => boolean = () => false,
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const result = (await database.db.execute(sql`
      delete from webhook_messages where id in (
        select m.id from webhook_messages m
        where m.created_at < ${cutoff.toISOString()}::timestamptz
          and not exists (select 1 from webhook_deliveries d where d.message_id = m.id and d.status = 'pending')
        order by m.id
        limit ${RETENTION_BATCH}
        for update skip locked
      ) returning 1`)) as unknown as { rows: unknown[] };
    const count = result.rows.length;
    deleted += count;
    if (count < RETENTION_BATCH || stopping()) return deleted;
  }
}
