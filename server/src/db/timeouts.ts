/**
 * How long the server waits on PostgreSQL (issue 12: a database that stalls must give 503, not hang). Statements
 * have a budget by class: a lookup's (its shared statements too) and a usage write's are shorter than the default
 * one every other statement gets. The default is also set as the server's statement_timeout, so a statement the
 * client stopped waiting for does not run on. Migrations and the CLI's bulk work run without them.
 */
export interface DatabaseTimeouts {
  /** A new connection, or a free one from a full pool. */
  connectMs: number;
  /** An unused connection is closed after this. */
  idleMs: number;
  statementMs: number;
  lookupMs: number;
  usageMs: number;
}

export function databaseTimeouts(statementMs = 15_000, connectMs = 5_000): DatabaseTimeouts {
  return {
    connectMs,
    idleMs: 30_000,
    statementMs,
    lookupMs: Math.min(statementMs, 10_000),
    usageMs: Math.min(statementMs, 5_000),
  };
}
