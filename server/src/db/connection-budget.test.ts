/** A cluster's pools against PostgreSQL's max_connections (decision 0043), warned of at start. */
import { describe, expect, inject, it } from 'vitest';
import { testDatabase } from '../test/harness';
import { POOL_SIZE } from './client';
import { budgetWarning, connectionBudgetWarning } from './connection-budget';

describe('the connection budget', () => {
  it('is quiet while the pools fit, and says what to change when they do not', () => {
    expect(budgetWarning({ maxConnections: 100, reserved: 3, processes: 9, poolSize: 10 })).toBeNull();
    expect(budgetWarning({ maxConnections: 100, reserved: 3, processes: 10, poolSize: 10 })).toBe(
      '10 server processes (WEB_CONCURRENCY) may hold 100 PostgreSQL connections, more than the 97 the server ' +
        'allows (max_connections 100 less 3 reserved): lower WEB_CONCURRENCY, raise max_connections, or put ' +
        'PgBouncer in front (DATABASE_POOL_MODE=transaction).',
    );
  });

  it.runIf(inject('databaseUrl'))('reads the server’s own settings', async () => {
    const database = await testDatabase();
    const [row] = await database.query<{ max: string; reserved: string }>(
      `select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved`,
    );
    const allowed = Number(row!.max) - Number(row!.reserved);
    expect(await connectionBudgetWarning(database, Math.floor(allowed / POOL_SIZE))).toBeNull();
    expect(await connectionBudgetWarning(database, Math.floor(allowed / POOL_SIZE) + 1)).toContain(
      `more than the ${allowed} the server allows`,
    );
  });
});
