/**
 * What the query console lets run, decided on PostgreSQL's own parser (libpg-query: the server's grammar compiled
 * to WebAssembly), before anything reaches a database: exactly one statement, and that one a SELECT (VALUES,
 * TABLE, set operations), EXPLAIN of one, or SHOW, with no data-modifying CTE, no SELECT INTO, no row locks and
 * none of the functions that act outside a transaction. This names the reason for a refusal; the real guard is
 * the READ ONLY transaction every statement runs in, always rolled back (decision 0036).
 */
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import { parse } from 'libpg-query';
import { BadRequest } from '../../http/errors';

export interface GuardedStatement {
  kind: 'select' | 'explain' | 'show';
  /** The statement's own text, without a trailing semicolon or what follows it. */
  text: string;
  /** EXPLAIN ANALYZE runs its query. */
  analyze: boolean;
  /** Functions it calls, lowercased (schema-qualified ones by their last name). */
  functions: Set<string>;
  recursive: boolean;
}

const WRITES: Record<string, string> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
};

/** Functions that act on the server, other sessions or files, which a rolled-back transaction does not undo. */
const REFUSED_FUNCTIONS = new Set([
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_switch_wal',
  'pg_create_restore_point',
  'pg_log_backend_memory_contexts',
  'pg_file_write',
  'pg_file_rename',
  'pg_file_unlink',
  'lo_import',
  'lo_export',
  'lo_unlink',
]);
const REFUSED_PREFIXES = ['dblink', 'pg_advisory', 'pg_try_advisory', 'pg_replication_origin', 'pg_drop_replication'];

function refusedFunction(name: string): boolean {
  return REFUSED_FUNCTIONS.has(name) || REFUSED_PREFIXES.some((p) => name.startsWith(p));
}

interface Walk {
  types: Set<string>;
  functions: Set<string>;
  recursive: boolean;
  into: boolean;
  locking: boolean;
}

function walk(node: unknown, seen: Walk): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, seen);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (/^[A-Z]/.test(key)) seen.types.add(key);
    if (key === 'FuncCall') {
      const names = (value as { funcname?: { String?: { sval?: string } }[] }).funcname ?? [];
      const last = names.at(-1)?.String?.sval;
      if (last) seen.functions.add(last.toLowerCase());
    }
    if (key === 'withClause' && (value as { recursive?: boolean }).recursive) seen.recursive = true;
    if (key === 'intoClause') seen.into = true;
    if (key === 'lockingClause') seen.locking = true;
    walk(value, seen);
  }
}

/** The statement's leading keywords, for a refusal naming what it is: "CREATE TABLE", "DROP", "COPY". */
function leadingWords(text: string, type: string): string {
  const words = text.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '').split(/\s+/, 2);
  const first = (words[0] ?? '').toUpperCase();
  if (['CREATE', 'ALTER', 'DROP', 'COMMENT', 'GRANT', 'REVOKE'].includes(first) && words[1]) {
    return `${first} ${words[1].toUpperCase()}`;
  }
  return first || type.replace(/Stmt$/, '').toUpperCase();
}

/** Statements that change the schema, permissions or storage (CreateStmt, IndexStmt, ViewStmt, DropStmt, ...). */
const DDL =
  /^(Create|Alter|Drop|Rename|Comment|Grant|Revoke|Truncate|Reindex|Cluster|Vacuum|Refresh|Index|View|Rule|Composite|Define|SecLabel|Import)/;
const SETTINGS = new Set(['VariableSetStmt', 'AlterSystemStmt', 'LoadStmt', 'DiscardStmt']);

/** Parses and checks one console statement; a refusal is a 400 naming why. */
export async function guardStatement(sql: string): Promise<GuardedStatement> {
  if (sql.trim() === '') throw new BadRequest(QUERY_MESSAGES.empty);
  let parsed: { stmts?: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[] };
  try {
    parsed = (await parse(sql)) as unknown as typeof parsed;
  } catch (err) {
    throw new BadRequest(QUERY_MESSAGES.syntax((err as Error).message));
  }
  const stmts = parsed.stmts ?? [];
  if (stmts.length === 0) throw new BadRequest(QUERY_MESSAGES.empty);
  if (stmts.length > 1) throw new BadRequest(QUERY_MESSAGES.multiple);
  const only = stmts[0]!;
  const type = Object.keys(only.stmt)[0] ?? '';
  const start = only.stmt_location ?? 0;
  const text = (only.stmt_len ? sql.slice(start, start + only.stmt_len) : sql.slice(start)).trim().replace(/;\s*$/, '');
  const seen: Walk = { types: new Set(), functions: new Set(), recursive: false, into: false, locking: false };
  walk(only.stmt, seen);
  const write = [...seen.types].find((t) => t in WRITES);
  if (write) throw new BadRequest(QUERY_MESSAGES.write(WRITES[write]!));
  if (type !== 'SelectStmt' && type !== 'ExplainStmt' && type !== 'VariableShowStmt') {
    const what = leadingWords(text, type);
    if (SETTINGS.has(type) || DDL.test(type)) throw new BadRequest(QUERY_MESSAGES.ddl(what));
    throw new BadRequest(QUERY_MESSAGES.notAllowed(what));
  }
  if (seen.into) throw new BadRequest(QUERY_MESSAGES.into);
  if (seen.locking) throw new BadRequest(QUERY_MESSAGES.lock);
  const refused = [...seen.functions].find(refusedFunction);
  if (refused) throw new BadRequest(QUERY_MESSAGES.func(refused));
  const options = (only.stmt.ExplainStmt as { options?: { DefElem?: { defname?: string; arg?: unknown } }[] })?.options;
  const analyze = (options ?? []).some((o) => o.DefElem?.defname === 'analyze' && !isFalse(o.DefElem.arg));
  return {
    kind: type === 'SelectStmt' ? 'select' : type === 'ExplainStmt' ? 'explain' : 'show',
    text,
    analyze,
    functions: seen.functions,
    recursive: seen.recursive,
  };
}

function isFalse(arg: unknown): boolean {
  const s = JSON.stringify(arg ?? '').toLowerCase();
  return /"(false|off|0)"|"boolval":\{\}/.test(s) || /"ival":0\b/.test(s);
}
