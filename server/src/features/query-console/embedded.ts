/**
 * The embedded engine's refusals (decisions 0036 and 0048). PGlite runs inside the server on the one connection
 * lookups use: no timeout fires there and nothing can cancel, so a statement that could run long must be refused
 * before it starts. Refused: the sleep functions, built-ins that run SQL given as text (query_to_xml and the like,
 * where the guard cannot see what runs), functions that are not built in (they could loop), recursive queries,
 * EXPLAIN ANALYZE, and a planned cost above EMBEDDED_COST_LIMIT.
 */
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import { BOUNDARY_MESSAGES, CONSOLE_ROLE, EMBEDDED_COST_LIMIT, SQL_TEXT_RUNNERS } from './boundary';
import type { GuardedStatement } from './guard';
import { rowCells } from './row-literal';
import { QueryRefused } from './runner-errors';
import type { Session } from './session';

const SLEEPS = ['pg_sleep', 'pg_sleep_for', 'pg_sleep_until'];

/** What is refused from the statement alone, before the database is asked anything. */
export function refuseOnEmbedded(statement: GuardedStatement): void {
  const sleep = SLEEPS.find((f) => statement.functions.has(f));
  if (sleep) throw new QueryRefused(QUERY_MESSAGES.embeddedSleep(sleep));
  const runner = [...statement.functions].find((f) => SQL_TEXT_RUNNERS.has(f));
  if (runner) throw new QueryRefused(BOUNDARY_MESSAGES.embeddedSqlText(runner));
  if (statement.recursive) throw new QueryRefused(QUERY_MESSAGES.embeddedRecursive);
  if (statement.analyze) throw new QueryRefused(QUERY_MESSAGES.embeddedAnalyze);
}

/** What the catalog and the planner say: functions not built in, and the planned cost. */
export async function checkEmbeddedPlan(session: Session, statement: GuardedStatement, explain: boolean) {
  const names = [...statement.functions];
  if (names.length > 0) {
    const [found] = await session.fetch(
      `select p.proname::text from pg_catalog.pg_proc p
         join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         join pg_catalog.pg_language l on l.oid = p.prolang
       where p.proname = any($1::text[]) and n.nspname <> 'pg_catalog' and l.lanname not in ('internal', 'c')
       limit 1`,
      [names],
    );
    if (found?.[0]) throw new QueryRefused(BOUNDARY_MESSAGES.embeddedUserFunction(found[0]));
  }
  if (statement.kind !== 'select' || explain) return;
  const [row] = await session.fetch(`select line from ${CONSOLE_ROLE}.run($1, 1, $2)`, [
    `explain (format json) ${statement.text}`,
    64 * 1024 * 1024,
  ]);
  const plan = JSON.parse(rowCells(String(row?.[0] ?? '()'), 1)[0] ?? '[]') as { Plan?: { 'Total Cost'?: number } }[];
  const cost = plan[0]?.Plan?.['Total Cost'] ?? 0;
  if (cost > EMBEDDED_COST_LIMIT) throw new QueryRefused(BOUNDARY_MESSAGES.embeddedCost(cost));
}
