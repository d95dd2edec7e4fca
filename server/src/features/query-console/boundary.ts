/**
 * The query console's boundary (decision 0048): the database role statements run as, the limits the server keeps
 * whatever a statement does to its own settings, and the messages naming them.
 */
import { EMBEDDED_MAX_COST, QUERY_MESSAGES } from '@tessera/common/query-console';

/** The NOLOGIN role console statements run as, through its SECURITY DEFINER function run() (migration 0029). */
export const CONSOLE_ROLE = 'tessera_query_console';

/** Row text a result may hold (as PostgreSQL writes each row); past it the result is cut and says so. */
export const RESULT_MAX_BYTES = 16 * 1024 * 1024;

/** Past statement_timeout plus this, the server cancels the run's statement from a connection of its own... */
export const DEADLINE_GRACE_MS = 1_000;
/** ...repeating the cancel for this long (one arriving between statements is dropped), then ends the backend. */
export const TERMINATE_AFTER_MS = 2_000;

/** Longest a console statement waits for a lock before it fails. */
export const LOCK_TIMEOUT_MS = 1_000;

/** The embedded engine's cost limit, one rule with its message in common (decision 0048). */
export const EMBEDDED_COST_LIMIT = EMBEDDED_MAX_COST;

/**
 * Built-in functions that run SQL given as text (or every table of a schema), where the guard cannot see what
 * runs: refused on the embedded engine, whose statements nothing can stop. On PostgreSQL the role bounds them.
 */
export const SQL_TEXT_RUNNERS = new Set([
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'table_to_xml',
  'table_to_xmlschema',
  'table_to_xml_and_xmlschema',
  'schema_to_xml',
  'schema_to_xmlschema',
  'schema_to_xml_and_xmlschema',
  'database_to_xml',
  'database_to_xmlschema',
  'database_to_xml_and_xmlschema',
  'ts_stat',
  'ts_rewrite',
]);

const DOCS = 'docs/decisions/0048-query-console-boundary.md';

/** Why the role cannot be used on a cluster, by the code the readiness check answers. */
const UNUSABLE: Record<string, string> = {
  missing: 'does not exist there',
  not_member: `the server's database user may not switch to (GRANT ${CONSOLE_ROLE} TO that user)`,
  no_function: `has no ${CONSOLE_ROLE}.run() function of its own there`,
  too_strong: 'is a superuser or holds rights over other sessions, files or programs there, so it bounds nothing',
};

const embedded = 'The embedded database runs inside the server, where nothing can stop a query once it runs';

export const BOUNDARY_MESSAGES = {
  roleUnusable: (cluster: string, code: string) =>
    `The query console cannot run on cluster '${cluster}': it runs statements as the database role ${CONSOLE_ROLE}, ` +
    `which ${UNUSABLE[code] ?? code}. An administrator can create it with the SQL in ${DOCS}.`,
  privilege: (message: string) =>
    `The query console runs as the read-only role ${CONSOLE_ROLE}, which may not do this: ${message}.`,
  cutBytes: (bytes: number) =>
    `The result was cut at ${Math.round(bytes / 1024 / 1024)} MB, the console's limit: the rows before it are shown.`,
  cutRows: (rows: number) => `The result was cut at the row cap of ${rows.toLocaleString('en-US')}.`,
  stopped: (seconds: number, how: 'cancelled' | 'terminated') =>
    `The query ran past the ${seconds} s limit and the server stopped it ` +
    `(${how === 'cancelled' ? 'it cancelled the statement' : 'it ended the database session'}).`,
  embeddedSqlText: (name: string) =>
    `${embedded}: ${name}() runs SQL given as text, which could sleep or loop, so it is refused there.`,
  embeddedUserFunction: (name: string) =>
    `${embedded}: ${name}() is not a built-in function and could loop, so it is refused there.`,
  embeddedCost: QUERY_MESSAGES.embeddedCost,
} as const;
