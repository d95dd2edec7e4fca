/**
 * How many streamed PUT lookups may run at once (issue 28, finding 14): STREAM_LIMITS.perKey for one API key (or
 * console user) and perOrganization for one organization, counted across every process in `lookup_streams`. The
 * check and the claim are one transaction under an advisory lock of the organization's, so two streams starting
 * together cannot both take the last place. A claim is a lease renewed as the stream makes progress, so the claims
 * of a process that died lapse by themselves.
 */
import { STREAM_LIMIT_MESSAGES, STREAM_LIMITS } from '@tessera/common/lookups';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { TooManyRequests } from '../../http/errors';
import type { LookupCaller } from './caller';

type Rows<T> = { rows: T[] };

export interface StreamClaim {
  /** Extends the lease (each batch). */
  renew(): Promise<void>;
  /** Frees the place. Never throws: a claim left behind lapses with its lease. */
  release(): Promise<void>;
}

/** Seconds a refused caller is asked to wait: streams run for a while. */
const RETRY_AFTER_SECONDS = 10;

export async function claimStream(database: Database, caller: LookupCaller, requestId: string): Promise<StreamClaim> {
  const owner = caller.keyId ? `key:${caller.keyId}` : `user:${caller.userId}`;
  const org = caller.organizationId;
  const lease = `${STREAM_LIMITS.leaseSeconds} seconds`;
  await database.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`lookup-streams:${org ?? owner}`}))`);
    const counted = (await tx.execute(sql`select
        count(*) filter (where owner = ${owner})::int as mine,
        count(*) filter (where ${org}::int is not null and organization_id = ${org}::int)::int as theirs
      from lookup_streams where expires_at > now() and (owner = ${owner} or organization_id = ${org}::int)`)) as unknown as Rows<{
      mine: number;
      theirs: number;
    }>;
    const { mine, theirs } = counted.rows[0] ?? { mine: 0, theirs: 0 };
    if (mine >= STREAM_LIMITS.perKey) {
      throw new TooManyRequests(STREAM_LIMIT_MESSAGES.key(STREAM_LIMITS.perKey), RETRY_AFTER_SECONDS);
    }
    if (org !== null && theirs >= STREAM_LIMITS.perOrganization) {
      throw new TooManyRequests(STREAM_LIMIT_MESSAGES.organization(STREAM_LIMITS.perOrganization), RETRY_AFTER_SECONDS);
    }
    await tx.execute(sql`delete from lookup_streams where expires_at <= now() and (owner = ${owner}
      or organization_id = ${org}::int)`);
    await tx.execute(sql`insert into lookup_streams (request_id, owner, organization_id, expires_at)
      values (${requestId}, ${owner}, ${org}::int, now() + ${lease}::interval)
      on conflict (request_id) do update set expires_at = excluded.expires_at`);
  });
  return {
    async renew() {
      await database.query(`update lookup_streams set expires_at = now() + $2::interval where request_id = $1`, [
        requestId,
        lease,
      ]);
    },
    async release() {
      await database.query('delete from lookup_streams where request_id = $1', [requestId]).catch(() => {});
    },
  };
}
