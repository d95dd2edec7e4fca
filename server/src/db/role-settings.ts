/**
 * The settings every connection of the server's pool runs with (plan_cache_mode, statement_timeout,
 * idle_in_transaction_session_timeout), and how they reach PostgreSQL behind PgBouncer in transaction mode
 * (DATABASE_POOL_MODE=transaction, decision 0042): there a connection may carry no start-up parameters, and a
 * session SET would stay with whichever server connection ran it, so they are made the defaults of the connecting
 * role in this database, which PostgreSQL applies to every server connection PgBouncer opens from then on.
 */
import type pg from 'pg';
import type { DatabaseTimeouts } from './timeouts';

export interface ConnectionSettings {
  /** Generic plans (decision 0017): the lookup's statements take longer to plan than to run. */
  plan_cache_mode: 'force_generic_plan';
  statement_timeout?: number;
  idle_in_transaction_session_timeout?: number;
}

/** What the pool's connections need; the time limits only when the caller has them (the server, not the CLI). */
export function connectionSettings(timeouts: DatabaseTimeouts | null | undefined): ConnectionSettings {
  return {
    plan_cache_mode: 'force_generic_plan',
    ...(timeouts && {
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: timeouts.statementMs * 4,
    }),
  };
}

/** Serializes servers starting together: two ALTER ROLEs of one row at once fail with "tuple concurrently updated". */
const ROLE_SETTINGS_LOCK = 727_274_002;

const CURRENT = `
  select current_database() as database,
         (select setconfig from pg_db_role_setting
           where setrole = (select oid from pg_roles where rolname = current_user)
             and setdatabase = (select oid from pg_database where datname = current_database())) as config`;

/** Other connections of this role in this database that started before now: they read the defaults before. */
const OLDER = `
  select count(*)::int as n from pg_stat_activity
   where datname = current_database() and usename = current_user and pid <> pg_backend_pid()
     and backend_type = 'client backend' and backend_start < statement_timestamp()`;

export class RoleSettingsError extends Error {}

/**
 * Makes `settings` the defaults of the connecting role in this database, writing the catalog only for those that
 * differ from what is stored (a restart writes nothing). One transaction on one connection, which also answers for
 * the pool's first ping. When it wrote, it reports how many connections were open before: PostgreSQL reads a role's
 * defaults once, at a connection's start, so those keep the old values until they close (PgBouncer's RECONNECT, or
 * its server_lifetime). Ending them from here was tried: PgBouncer may be handing one to a client at that very
 * moment, whose statement then fails.
 */
export async function applyRoleSettings(
  pool: pg.Pool,
  settings: ConnectionSettings,
  report: (line: string) => void = () => {},
): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  // A checked-out client has no pool listener: a lost connection must fail this call, not the process.
  const lost = () => {
    broken = true;
  };
  client.on('error', lost);
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [ROLE_SETTINGS_LOCK]);
    const { rows } = await client.query<{ database: string; config: string[] | null }>(CURRENT);
    const stored = new Set(rows[0]!.config ?? []);
    const written = Object.entries(settings).filter(([name, value]) => !stored.has(`${name}=${value}`));
    const database = client.escapeIdentifier(rows[0]!.database);
    for (const [name, value] of written) {
      await client.query(`alter role current_user in database ${database} set ${name} = ${value}`).catch((err) => {
        throw new RoleSettingsError(
          `DATABASE_POOL_MODE=transaction: could not make ${name} a default of the database role (${err.message}).`,
        );
      });
    }
    // This server connection may predate the defaults: it takes the values itself, and keeps them on purpose, as
    // they are what every connection of this role gets anyway.
    for (const [name, value] of Object.entries(settings)) {
      await client.query('select set_config($1, $2, false)', [name, String(value)]);
    }
    await client.query('commit');
    if (written.length > 0) {
      const older = (await client.query<{ n: number }>(OLDER)).rows[0]!.n;
      report(
        `DATABASE_POOL_MODE=transaction: ${written.map(([name]) => name).join(', ')} set as defaults of the ` +
          `database role; ${older} connection(s) opened before keep the old values until they close ` +
          "(PgBouncer's RECONNECT closes them; its server_lifetime does in time).",
      );
    }
  } catch (err) {
    await client.query('rollback').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}
