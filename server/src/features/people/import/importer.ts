/**
 * The import path shared by `tessera import` and start-up seeding: rows in, batches of people written one
 * transaction each, refused rows to the reject sink. A batch that the database refuses as a whole (a value only
 * it can judge) is rolled back and retried one person per transaction, so only the bad person is rejected.
 */
import type { Database } from '../../../db/client';
import type { IdentityRecord } from '../record';
import type { Reject } from './rejects';
import type { SourceRow } from './source';
import { writeBatch } from './write-batch';

export const DEFAULT_BATCH_SIZE = 2000;

export interface ImportOptions {
  batchSize?: number;
  onReject?: (reject: Reject) => void;
  /** Called after every batch with the rows seen so far and the last one (for a progress display). */
  onBatch?: (done: { rows: number; last: SourceRow | null }) => void;
  /** The writer for one batch (tests replace it to see a failing batch roll back). */
  write?: (database: Database, records: IdentityRecord[]) => Promise<void>;
}

export interface ImportSummary {
  loaded: number;
  rejected: number;
  seconds: number;
}

interface Pending {
  record: IdentityRecord;
  file: string;
  line: number;
}

export async function importRows(
  database: Database,
  rows: AsyncIterable<SourceRow> | Iterable<SourceRow>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const write = options.write ?? writeBatch;
  let loaded = 0;
  let rejected = 0;
  let seen = 0;
  let last: SourceRow | null = null;
  // Keyed by id: a person twice in one batch is written once, as the later row says (as if loaded in order).
  let batch = new Map<number, Pending>();
  const reject = (r: Reject) => {
    rejected++;
    options.onReject?.(r);
  };

  const flush = async () => {
    if (batch.size === 0) return;
    const items = [...batch.values()];
    batch = new Map();
    try {
      await write(
        database,
        items.map((i) => i.record),
      );
      loaded += items.length;
    } catch {
      for (const item of items) {
        try {
          await write(database, [item.record]);
          loaded++;
        } catch (err) {
          reject({ file: item.file, line: item.line, reason: `database: ${(err as Error).message}` });
        }
      }
    }
    options.onBatch?.({ rows: seen, last });
  };

  for await (const row of rows) {
    seen++;
    last = row;
    if ('reason' in row) {
      reject({ file: row.file, line: row.line, reason: row.reason });
      continue;
    }
    if (batch.delete(row.record.id)) loaded++; // the earlier row was loaded, then replaced
    batch.set(row.record.id, { record: row.record, file: row.file, line: row.line });
    if (batch.size >= batchSize) await flush();
  }
  await flush();
  return { loaded, rejected, seconds: (performance.now() - started) / 1000 };
}
