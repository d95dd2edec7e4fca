/**
 * The read-only query console (issue 20): limits, messages and shapes shared by the server and the Query page.
 */

export const QUERY_LIMITS = {
  /** The longest SQL text accepted. */
  sqlMaxChars: 100_000,
  defaultMaxRows: 1_000,
  maxRows: 100_000,
  /** statement_timeout of every console query. */
  timeoutMs: 10_000,
  /** The password must have been entered this recently (or the console used since) for a query to run. */
  stepUpMs: 10 * 60_000,
  savedNameMax: 100,
  /** History entries a user sees, newest first. */
  historyLimit: 200,
  savedLimit: 500,
  /** Longest text of a cell shown in the page's table (the CSV export has it whole). */
  cellPreviewChars: 500,
} as const;

/** The planner cost above which the embedded engine refuses a query: nothing can stop it once it runs there. */
export const EMBEDDED_MAX_COST = 50_000; // PGlite 0.5.16 on 2 busy cores: 7.5 s at worst (decision 0048)

export const QUERY_MESSAGES = {
  stepUp: 'Please confirm your password to use the query console.',
  wrongPassword: 'The password is incorrect.',
  noPassword: 'Your account has no password to confirm. Please set one first.',
  empty: 'Please provide a SQL statement.',
  multiple: 'Only one statement can run at a time: remove everything after the first statement.',
  write: (what: string) => `The query console is read-only: ${what} changes data and is refused.`,
  ddl: (what: string) => `The query console is read-only: ${what} changes the schema or settings and is refused.`,
  notAllowed: (what: string) => `The query console runs only SELECT, VALUES, TABLE, EXPLAIN and SHOW, not ${what}.`,
  lock: 'The query console is read-only: SELECT ... FOR UPDATE/SHARE locks rows and is refused.',
  into: 'The query console is read-only: SELECT ... INTO creates a table and is refused.',
  func: (name: string) => `The query console refuses ${name}(): it acts on the server outside the transaction.`,
  syntax: (message: string) => `The SQL could not be parsed: ${message}.`,
  timeout: (seconds: number) => `The query ran longer than the ${seconds} s statement timeout and was stopped.`,
  cancelled: 'The query was cancelled.',
  unknownCluster: (name: string, known: string[]) => `There is no cluster named '${name}'. Known: ${known.join(', ')}.`,
  unreachable: (name: string) => `The cluster '${name}' is unreachable.`,
  embeddedSleep: (name: string) =>
    `The embedded database runs inside the server, where no timeout can stop ${name}(): it is refused there.`,
  embeddedRecursive:
    'The embedded database runs inside the server, where no timeout can stop a recursive query: it is refused there.',
  embeddedAnalyze:
    'The embedded database runs inside the server, where no timeout can stop EXPLAIN ANALYZE (it runs the query): use EXPLAIN.',
  embeddedCost: (cost: number) =>
    `The embedded database runs inside the server, where nothing can stop a query once it runs: this one's planned ` +
    `cost (${Math.round(cost).toLocaleString('en-US')}) is above the limit of ${EMBEDDED_MAX_COST.toLocaleString('en-US')}.`,
  embeddedCancel:
    'Queries on the embedded database run inside the server one at a time and cannot be cancelled; long ones are refused before they start.',
  notRunning: 'That query is not running (it has finished or was never started).',
  savedNotFound: 'There is no such saved query.',
} as const;

export type QueryOutcome = 'ok' | 'error' | 'timeout' | 'cancelled' | 'refused' | 'running';

export interface QueryColumn {
  name: string;
  /** The PostgreSQL type name (e.g. int4, text, timestamptz). */
  type: string;
}

/** POST /v2/query's reply. Cells are strings as PostgreSQL writes them, or null. */
export interface QueryResult {
  columns: QueryColumn[];
  rows: (string | null)[][];
  rowCount: number;
  truncated: boolean;
  ms: number;
}

export interface QueryRun {
  id: number;
  runId: string;
  cluster: string;
  sql: string;
  outcome: QueryOutcome;
  rowCount: number | null;
  ms: number | null;
  error: string | null;
  startedAt: string;
}

export interface SavedQuery {
  id: number;
  name: string;
  cluster: string;
  sql: string;
  createdAt: string;
  updatedAt: string;
}

/** Tables and their columns of a cluster, for the editor's completion: { 'schema.table': ['col', ...] }. */
export type ClusterSchema = Record<string, string[]>;
