/**
 * A list of values to suppress (a regulator's deletion list, say): CSV or one value a line, any size, read as it
 * arrives (csv-parse's stream, a batch of rows at a time) in the caller's one transaction, so a list that fails half
 * way leaves nothing applied. Values this server cannot read are counted as bad lines and skipped.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STEWARDSHIP_LIMITS, type SuppressionImportReport, suppressionKeyOf } from '@tessera/common/stewardship';
import { parse } from 'csv-parse';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { storedKey } from './keys';

const BATCH = 1000;
/** A line longer than this is no list of values: the import fails rather than buffer it. */
const MAX_LINE = 10_000;
const HEADER_CELL = /^[A-Za-z][A-Za-z0-9_ .-]*$/;

type Rows<T> = { rows: T[] };

async function insertBatch(tx: Tx, keys: { kind: string; value: string }[], userId: number): Promise<number> {
  const json = JSON.stringify(keys);
  await tx.execute(sql`insert into stewardship_import (kind, value)
    select kind, value from json_to_recordset(${json}::json) as v(kind text, value text) on conflict do nothing`);
  const result = (await tx.execute(sql`with ins as (
      insert into suppressions (kind, value, source, created_by)
      select distinct kind, value, 'import', ${userId}::int from json_to_recordset(${json}::json) as v(kind text, value text)
      on conflict do nothing returning 1)
    select count(*)::int as n from ins`)) as unknown as Rows<{ n: number }>;
  return result.rows[0]?.n ?? 0;
}

export async function importSuppressions(tx: Tx, body: Readable, userId: number): Promise<SuppressionImportReport> {
  const report: SuppressionImportReport = {
    lines: 0,
    added: 0,
    alreadyPresent: 0,
    peopleMatched: 0,
    badLines: 0,
    badLineNumbers: [],
  };
  await tx.execute(sql`create temp table stewardship_import (kind text, value text, primary key (kind, value))
    on commit drop`);
  let batch: { kind: string; value: string }[] = [];
  let valid = 0;
  let first = true;
  const flush = async () => {
    if (batch.length === 0) return;
    report.added += await insertBatch(tx, batch, userId);
    batch = [];
  };
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: MAX_LINE,
    info: true,
  });
  const reading = pipeline(body, parser);
  // A parse error surfaces in the loop below; this keeps the same rejection from going unhandled.
  reading.catch(() => {});
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const cells = record.filter((c) => c !== '');
    if (cells.length === 0) continue;
    const keys = cells.map(suppressionKeyOf);
    if (first) {
      first = false;
      // A header line (column names, no values) is not a bad line.
      if (keys.every((k) => k === null) && cells.every((c) => HEADER_CELL.test(c))) continue;
    }
    report.lines++;
    if (keys.some((k) => k === null)) {
      report.badLines++;
      if (report.badLineNumbers.length < STEWARDSHIP_LIMITS.badLinesNamed) report.badLineNumbers.push(info.lines);
      continue;
    }
    for (const key of keys) {
      batch.push(storedKey(key!));
      valid++;
    }
    if (batch.length >= BATCH) await flush();
  }
  await reading;
  await flush();
  report.alreadyPresent = valid - report.added;
  const people = (await tx.execute(sql`select count(distinct h.id)::int as n from (
      select e.identity_id as id from stewardship_import s join person_emails e on s.kind = 'md5' and e.md5 = s.value
      union all select e.identity_id from stewardship_import s join person_emails e
        on s.kind = 'sha256' and e.sha256 = s.value
      union all select f.identity_id from person_phones f join stewardship_import s
        on s.kind = 'phone' and f.number = s.value) h`)) as unknown as Rows<{ n: number }>;
  report.peopleMatched = people.rows[0]?.n ?? 0;
  return report;
}
