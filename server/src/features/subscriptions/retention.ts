/**
 * The retention of captured changes (decision 0067): a change is deleted once its events are made, so one older than
 * CHANGE_RETENTION_DAYS is one the notifier could not make (its person gone, a template that kept failing): deleted a
 * thousand at a time, skipping rows another process holds (SKIP LOCKED), so every process may run it at once.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/rows';

export const CHANGE_RETENTION_DAYS = 30;
export const CHANGE_RETENTION_BATCH = 1000;
/** How often each process prunes. */
export const CHANGE_RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Deletes the changes older than the retention as of `now`; answers how many. */
export async function pruneChanges(
  database: Database,
  now: Date = new Date(),
  stopping: () => boolean = () => false,
): Promise<number> {
  const cutoff = new Date(now.getTime() - CHANGE_RETENTION_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const count = rowsOf(
      await database.db.execute(sql`
        delete from identity_changes where id in (
          select id from identity_changes where at < ${cutoff.toISOString()}::timestamptz
          order by id limit ${CHANGE_RETENTION_BATCH} for update skip locked
        ) returning 1`),
    ).length;
    deleted += count;
    if (count < CHANGE_RETENTION_BATCH || stopping()) return deleted;
  }
}
