/**
 * A job runs, and its result is read, with the rights people have now, not those they had when it was made (review
 * of issue 33): a maker deactivated, moved or narrowed to fewer record types mid-job gets no more than a lookup of
 * theirs would get, and a result is downloaded only by someone who may see every record type it may hold.
 */
import { JOB_MESSAGES } from '@tessera/common/jobs';
import { isRecordType, RECORD_TYPES } from '@tessera/common/record-types';
import { hasRank, type Role } from '@tessera/common/roles';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rows } from '../../db/rows';
import { Forbidden } from '../../http/errors';
import type { LookupCaller } from '../identities/caller';
import { keyRecordTypes } from '../keys/verify';
import type { JobRow } from './repo';

export const KEY_GONE = 'The API key that made this job was revoked or has expired.';

interface StandingRow {
  role: Role;
  active: boolean;
  organization_id: number | null;
  user_types: string[];
  key_types: string[] | null;
  key_live: boolean;
}

/**
 * The job's caller as its user and key stand now: role and record types read again; a key revoked or expired, a user
 * deactivated, deleted or moved to another organization ends the job (403 with the reason).
 */
export async function callerNow<C extends LookupCaller>(database: Database, saved: C): Promise<C> {
  const [row] = await rows<StandingRow>(
    database.db,
    sql`select u.role, (u.is_active and u.deleted_at is null) as active, u.organization_id,
        u.allowed_record_types as user_types, k.allowed_record_types as key_types,
        (k.id is not null and k.deleted_at is null and (k.expires_at is null or k.expires_at > now())) as key_live
      from users u left join api_keys k on k.id = ${saved.keyId} and k.user_id = u.id
      where u.id = ${saved.userId}`,
  );
  if (saved.keyId !== null && !row?.key_live) throw new Forbidden(KEY_GONE);
  if (!row?.active || !hasRank(row.role, 'user')) throw new Forbidden(JOB_MESSAGES.makerInactive);
  if (row.organization_id !== saved.organizationId) throw new Forbidden(JOB_MESSAGES.makerMoved);
  const allowedRecordTypes =
    saved.keyId === null ? row.user_types : keyRecordTypes(row.user_types, row.key_types ?? []);
  return { ...saved, role: row.role, allowedRecordTypes };
}

/** The record types a list grants: empty grants all; names that are no record type grant nothing. */
export const granted = (types: readonly string[]): string[] =>
  types.length === 0 ? [...RECORD_TYPES] : types.filter(isRecordType);

/**
 * Notes that the job's next chunk is answered with `types` (as its caller stands now): the job's `resultTypes` is the
 * union of those of every chunk, kept with its caller. Noted before the chunk commits, so it may name more, never less.
 */
export async function noteResultTypes(database: Database, jobId: number, types: readonly string[]): Promise<void> {
  await database.db.execute(sql`update bulk_jobs set caller = jsonb_set(caller, '{resultTypes}', (
      select coalesce(jsonb_agg(distinct t order by t), '[]'::jsonb) from (
        select jsonb_array_elements_text(coalesce(caller->'resultTypes', '[]'::jsonb)) as t
        union select jsonb_array_elements_text(${JSON.stringify(granted(types))}::jsonb)) held))
    where id = ${jobId}`);
}

/** The record types a job's result may hold: its chunks' (a job of before they were noted: its maker's then). */
export function heldTypes(job: Pick<JobRow, 'caller' | 'chunks_done'>): string[] {
  if (job.caller.resultTypes) return job.caller.resultTypes;
  return job.chunks_done > 0 ? granted(job.caller.allowedRecordTypes) : [];
}

/** Of the record types a result holds, those the reader may not see. */
export function typesBeyond(reader: readonly string[], held: readonly string[]): string[] {
  const may = new Set<string>(granted(reader));
  return held.filter((t) => !may.has(t));
}

/** Refuses a download of a result holding record types the reader may not see (403 naming them). */
export function mayReadResult(reader: LookupCaller, job: Pick<JobRow, 'caller' | 'chunks_done'>): void {
  const held = heldTypes(job);
  const beyond = RECORD_TYPES.filter((t) => typesBeyond(reader.allowedRecordTypes, held).includes(t));
  if (beyond.length > 0) throw new Forbidden(JOB_MESSAGES.resultTypes(beyond));
}
