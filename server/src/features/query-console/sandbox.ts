/**
 * Where a console statement runs (decision 0048): as the role tessera_query_console, inside its SECURITY DEFINER
 * function run(). The role reads this schema's tables and nothing more; inside the function PostgreSQL refuses to
 * change role or session authorization, so a statement cannot set_config('role', ...) back to the connecting user.
 * Before each run the server checks the role is there, usable and no stronger than that; else it refuses (503).
 */
import { Unavailable } from '../../http/errors';
import { BOUNDARY_MESSAGES, CONSOLE_ROLE } from './boundary';

/** Rights that make a role no boundary: over other sessions, the server's files, or programs. */
const TOO_STRONG = [
  'pg_signal_backend',
  'pg_read_server_files',
  'pg_write_server_files',
  'pg_execute_server_program',
  'pg_write_all_data',
];

/** 'ready', or why the role cannot be used here (a key of the roleUnusable message). */
export const READINESS_SQL = `
select case
  when r.oid is null then 'missing'
  when r.rolsuper or r.rolbypassrls or exists (
    select from pg_catalog.pg_roles g
    where g.oid <> r.oid and pg_catalog.pg_has_role(r.oid, g.oid, 'USAGE')
      and (g.rolsuper or g.rolname in (${TOO_STRONG.map((n) => `'${n}'`).join(', ')}))
  ) then 'too_strong'
  when not pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER') then 'not_member'
  when p.oid is null or not p.prosecdef or p.proowner <> r.oid then 'no_function'
  else 'ready' end
from (select 1) one
left join pg_catalog.pg_roles r on r.rolname = '${CONSOLE_ROLE}'
left join pg_catalog.pg_proc p on p.oid = pg_catalog.to_regprocedure('${CONSOLE_ROLE}.run(text,integer,bigint)')`;

/** Throws the 503 naming the role when the readiness check did not answer 'ready'. */
export function requireReady(cluster: string, answer: unknown): void {
  const code = String(answer ?? 'missing');
  if (code !== 'ready') throw new Unavailable(BOUNDARY_MESSAGES.roleUnusable(cluster, code));
}

export const CURSOR = 'tessera_console';

/** Opens the cursor over run(): $1 the statement, $2 the row cap, $3 the byte cap. */
export const DECLARE_SQL = `declare ${CURSOR} scroll cursor for select line, stop from ${CONSOLE_ROLE}.run($1, $2, $3)`;

/** The settings of the run's transaction, before the role is taken. */
export function transactionSettings(lockTimeoutMs: number): string[] {
  return [`set local lock_timeout = ${Math.round(lockTimeoutMs)}`, `set local role ${CONSOLE_ROLE}`];
}
