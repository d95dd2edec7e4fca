/** Query runs (history, and the backend to cancel while one runs) and saved queries, each user's own. */
import { QUERY_LIMITS, type QueryOutcome, type QueryRun, type SavedQuery } from '@tessera/common/query-console';
import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { queryRuns, savedQueries } from '../../db/schema';

type RunRow = typeof queryRuns.$inferSelect;
type SavedRow = typeof savedQueries.$inferSelect;

function runView(row: RunRow): QueryRun {
  return {
    id: row.id,
    runId: row.runId,
    cluster: row.cluster,
    sql: row.sql,
    outcome: row.outcome as QueryOutcome,
    rowCount: row.rowCount,
    ms: row.ms,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
  };
}

function savedView(row: SavedRow): SavedQuery {
  return {
    id: row.id,
    name: row.name,
    cluster: row.cluster,
    sql: row.sql,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function startRun(
  db: Executor,
  run: { runId: string; userId: number; cluster: string; sql: string },
): Promise<QueryRun> {
  const [row] = await db.insert(queryRuns).values(run).returning();
  return runView(row!);
}

export async function setRunBackend(db: Executor, runId: string, pid: number): Promise<void> {
  await db.update(queryRuns).set({ backendPid: pid }).where(eq(queryRuns.runId, runId));
}

export async function finishRun(
  db: Executor,
  runId: string,
  result: { outcome: Exclude<QueryOutcome, 'running'>; rowCount: number | null; ms: number; error: string | null },
): Promise<QueryRun> {
  const [row] = await db
    .update(queryRuns)
    .set({ ...result, backendPid: null, finishedAt: new Date() })
    .where(eq(queryRuns.runId, runId))
    .returning();
  return runView(row!);
}

/** The user's run by its run id, if it is still running. */
export async function findRunning(db: Executor, userId: number, runId: string): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(queryRuns)
    .where(and(eq(queryRuns.runId, runId), eq(queryRuns.userId, userId), eq(queryRuns.outcome, 'running')));
  return row ?? null;
}

export async function listRuns(db: Executor, userId: number): Promise<QueryRun[]> {
  const rows = await db
    .select()
    .from(queryRuns)
    .where(eq(queryRuns.userId, userId))
    .orderBy(desc(queryRuns.startedAt), desc(queryRuns.id))
    .limit(QUERY_LIMITS.historyLimit);
  return rows.map(runView);
}

export async function listSaved(db: Executor, userId: number): Promise<SavedQuery[]> {
  const rows = await db
    .select()
    .from(savedQueries)
    .where(eq(savedQueries.userId, userId))
    .orderBy(savedQueries.name, savedQueries.id)
    .limit(QUERY_LIMITS.savedLimit);
  return rows.map(savedView);
}

export async function insertSaved(
  db: Executor,
  userId: number,
  values: { name: string; cluster: string; sql: string },
): Promise<SavedQuery> {
  const [row] = await db
    .insert(savedQueries)
    .values({ ...values, userId })
    .returning();
  return savedView(row!);
}

export async function updateSaved(
  db: Executor,
  userId: number,
  id: number,
  values: { name: string; cluster: string; sql: string },
): Promise<SavedQuery | null> {
  const [row] = await db
    .update(savedQueries)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(savedQueries.id, id), eq(savedQueries.userId, userId)))
    .returning();
  return row ? savedView(row) : null;
}

export async function deleteSaved(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(savedQueries)
    .where(and(eq(savedQueries.id, id), eq(savedQueries.userId, userId)))
    .returning({ id: savedQueries.id });
  return rows.length > 0;
}
