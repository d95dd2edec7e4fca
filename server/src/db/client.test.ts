/**
 * The PostgreSQL client's plan modes (decision 0017): every pooled connection plans generically; a `customPlan` call
 * plans for its values in a transaction of its own, leaves nothing behind on the connection, and fails alone.
 */
import { describe, expect, inject, it } from 'vitest';
import { testDatabase } from '../test/harness';

describe.runIf(Boolean(inject('databaseUrl')))('plan modes on PostgreSQL', () => {
  it('plans generically on every connection, and for its values only inside a customPlan call', async () => {
    const database = await testDatabase();
    const mode = (customPlan = false) =>
      database.query<{ plan_cache_mode: string }>('show plan_cache_mode', [], { customPlan });
    // Several at once, so more than one pooled connection answers.
    const modes = await Promise.all(Array.from({ length: 6 }, () => mode()));
    expect(new Set(modes.map((r) => r[0]!.plan_cache_mode))).toEqual(new Set(['force_generic_plan']));
    expect((await mode(true))[0]!.plan_cache_mode).toBe('force_custom_plan');
    const after = await Promise.all(Array.from({ length: 6 }, () => mode()));
    expect(new Set(after.map((r) => r[0]!.plan_cache_mode))).toEqual(new Set(['force_generic_plan']));
  });

  it('fails a customPlan call that the database refuses, rolled back, and goes on', async () => {
    const database = await testDatabase();
    await expect(database.query('select $1::int', ['not a number'], { customPlan: true })).rejects.toThrow();
    const [row] = await database.query<{ n: number }>('select $1::int as n', [7], { customPlan: true });
    expect(row!.n).toBe(7);
    const [open] = await database.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in%'",
    );
    expect(open!.n).toBe(0);
  });
});
